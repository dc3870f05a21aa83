import { FileJson, Upload } from 'lucide-react';
import { useId, useState, type DragEvent, type RefObject } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Button } from '../../components/ui/button';
import { Field, fieldAria } from '../../components/ui/field';
import { cn } from '../../lib/cn';
import { formatBytes } from '../../lib/format';

/**
 * The backup page's card for choosing one JSON file: its name and size once chosen, a hidden file input and a
 * "choose" button; with `droppable`, a file can also be dropped on the card.
 */
export function JsonFilePicker({
  label,
  hint,
  file,
  error,
  onPick,
  inputRef,
  nameTestId,
  inputTestId,
  droppable = false,
}: {
  label: string;
  /** Shown while no file is chosen. */
  hint: string;
  file: { name: string; size: number } | null;
  error: string | undefined;
  onPick: (file: File | undefined) => void;
  /** The caller clears `inputRef.current.value` after it is done with a file. */
  inputRef: RefObject<HTMLInputElement | null>;
  nameTestId: string;
  inputTestId?: string;
  droppable?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  const dropHandlers = droppable
    ? {
        onDragOver: (event: DragEvent) => {
          event.preventDefault();
          setDragging(true);
        },
        onDragLeave: () => setDragging(false),
        onDrop: (event: DragEvent) => {
          event.preventDefault();
          setDragging(false);
          onPick(event.dataTransfer.files[0]);
        },
      }
    : {};

  return (
    <Field id={inputId} label={label} error={error}>
      <div
        {...dropHandlers}
        className={cn(
          'flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-center transition-colors sm:flex-row sm:text-start',
          dragging ? 'border-primary bg-primary-soft' : 'border-border bg-surface-muted',
          error && 'border-destructive',
        )}
      >
        <FileJson className="size-8 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          {file ? (
            <>
              <p className="truncate text-sm font-medium" data-testid={nameTestId}>
                {file.name}
              </p>
              <p className="text-xs text-muted-foreground">{formatBytes(file.size, i18n.language)}</p>
            </>
          ) : (
            <p className="text-sm text-muted-foreground">{hint}</p>
          )}
        </div>
        <input
          ref={inputRef}
          {...fieldAria(inputId, error, false)}
          type="file"
          accept="application/json,.json"
          className="sr-only"
          data-testid={inputTestId}
          onChange={(event) => onPick(event.target.files?.[0])}
        />
        <Button variant="secondary" onClick={() => inputRef.current?.click()}>
          <Upload className="size-4" aria-hidden="true" />
          {file ? t('adminPanel.backup.chooseOther') : t('adminPanel.backup.chooseFile')}
        </Button>
      </div>
    </Field>
  );
}
