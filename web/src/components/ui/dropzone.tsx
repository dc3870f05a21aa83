import { useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A drop target that is also a button opening the file picker (keyboard: Enter/Space).
 * `onFiles` receives every dropped or picked file; directories are ignored by the browser.
 */
export function Dropzone({
  onFiles,
  multiple = true,
  accept,
  disabled = false,
  label,
  children,
  className,
  inputTestId,
}: {
  onFiles: (files: File[]) => void;
  multiple?: boolean;
  accept?: string;
  disabled?: boolean;
  /** What pressing the zone does (tooltip); its accessible name is its visible text. */
  label: string;
  children: ReactNode;
  className?: string;
  inputTestId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const open = () => {
    if (!disabled) input.current?.click();
  };
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

  return (
    <>
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        title={label}
        aria-disabled={disabled || undefined}
        data-dragging={dragging || undefined}
        onClick={open}
        onKeyDown={(event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            open();
          }
        }}
        onDragEnter={(event) => {
          if (disabled || !hasFiles(event)) return;
          event.preventDefault();
          depth.current += 1;
          setDragging(true);
        }}
        onDragOver={(event) => {
          if (disabled || !hasFiles(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={() => {
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setDragging(false);
        }}
        onDrop={(event) => {
          if (disabled) return;
          event.preventDefault();
          depth.current = 0;
          setDragging(false);
          const files = Array.from(event.dataTransfer.files);
          if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
        }}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed border-input bg-surface px-6 py-10 text-center transition-colors',
          'hover:border-primary/60 hover:bg-primary-soft/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          'data-[dragging]:border-primary data-[dragging]:bg-primary-soft/60',
          disabled && 'cursor-not-allowed opacity-60 hover:border-input hover:bg-surface',
          className,
        )}
      >
        {children}
      </div>
      <input
        ref={input}
        type="file"
        multiple={multiple}
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={inputTestId}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
