import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field, fieldAria } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';

/** A name is one path segment: not empty, no slash or backslash, not `.` or `..`, at most 255 bytes. */
export function nameProblem(name: string): 'empty' | 'slash' | 'dots' | 'long' | null {
  const v = name.trim();
  if (!v) return 'empty';
  if (/[/\\]/.test(v)) return 'slash';
  if (v === '.' || v === '..') return 'dots';
  if (new TextEncoder().encode(v).length > 255) return 'long';
  return null;
}

/** New folder and rename: one name field with its rule shown as the user types. */
export function NameDialog({
  open,
  title,
  initial,
  submitLabel,
  busy,
  onSubmit,
  onOpenChange,
}: {
  open: boolean;
  title: string;
  initial: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (name: string) => void;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={title}
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="fs-name-form" loading={busy}>
              {submitLabel}
            </Button>
          </>
        }
      >
        {open && <NameForm initial={initial} onSubmit={onSubmit} />}
      </DialogContent>
    </Dialog>
  );
}

function NameForm({ initial, onSubmit }: { initial: string; onSubmit: (name: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const problem = nameProblem(name);
  const error = touched && problem ? t(`fs.explorer.nameInvalid.${problem}`) : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!problem) onSubmit(name.trim());
  };
  return (
    <form id="fs-name-form" onSubmit={submit} noValidate>
      <Field id="fs-name" label={t('fs.explorer.name')} error={error}>
        <Input
          {...fieldAria('fs-name', error, false)}
          autoFocus
          value={name}
          onFocus={(e) => {
            const dot = initial.lastIndexOf('.');
            e.currentTarget.setSelectionRange(0, dot > 0 ? dot : initial.length);
          }}
          onChange={(e) => {
            setName(e.target.value);
            setTouched(true);
          }}
        />
      </Field>
    </form>
  );
}
