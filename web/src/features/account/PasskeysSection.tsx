import { PASSKEY_NAME_MAX, type PasskeyView } from '@clipnest/contract';
import { Fingerprint, KeyRound, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { IconButton } from '../../components/ui/icon-button';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { PasswordInput } from '../../components/ui/password-input';
import { RelativeTime } from '../../components/ui/relative-time';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { passkeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './api';
import { Section } from './Section';

/** Name (and, to add one, the password) of a passkey. */
function PasskeyDialog({
  mode,
  initialName,
  open,
  onOpenChange,
}: {
  mode: { kind: 'add' } | { kind: 'rename'; id: string };
  initialName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const [name, setName] = useState(initialName);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string; other?: string }>({});
  const busy = add.isPending || rename.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = t('adminPanel.account.passkeys.nameRequired');
    if (mode.kind === 'add' && !password) found.password = t('adminPanel.account.errors.currentRequired');
    setErrors(found);
    if (found.name || found.password) return;
    try {
      if (mode.kind === 'add') {
        await add.mutateAsync({ name: name.trim(), password });
        toast.success(t('adminPanel.account.passkeys.added'));
      } else {
        await rename.mutateAsync({ id: mode.id, name: name.trim() });
      }
      onOpenChange(false);
    } catch (error) {
      if (passkeyCancelled(error)) setErrors({ other: t('adminPanel.account.passkeys.cancelled') });
      else if (isApiError(error) && error.kind === 'password_wrong') {
        setErrors({ password: t('adminPanel.account.errors.currentWrong') });
      } else setErrors({ other: errorMessage(error) });
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={
          mode.kind === 'add' ? t('adminPanel.account.passkeys.addTitle') : t('adminPanel.account.passkeys.renameTitle')
        }
        description={mode.kind === 'add' ? t('adminPanel.account.passkeys.addBody') : undefined}
      >
        <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          <Field id="passkey-name" label={t('adminPanel.account.passkeys.name')} error={errors.name}>
            <Input
              {...fieldAria('passkey-name', errors.name, false)}
              value={name}
              maxLength={PASSKEY_NAME_MAX}
              placeholder={t('adminPanel.account.passkeys.namePlaceholder')}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          {mode.kind === 'add' && (
            <Field id="passkey-password" label={t('adminPanel.account.currentPassword')} error={errors.password}>
              <PasswordInput
                id="passkey-password"
                value={password}
                onChange={setPassword}
                invalid={errors.password ? true : undefined}
                autoComplete="current-password"
              />
            </Field>
          )}
          {errors.other && <Alert tone="danger">{errors.other}</Alert>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {mode.kind === 'add' ? t('adminPanel.account.passkeys.create') : t('common.save')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The admin's passkeys: add (with the password), rename, remove. */
export function PasskeysSection() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const [editing, setEditing] = useState<{ kind: 'add' } | { kind: 'rename'; key: PasskeyView } | null>(null);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const supported = passkeysSupported();
  const items = passkeys.data?.items ?? [];

  let body;
  if (passkeys.isPending) body = <Skeleton className="h-10 w-full" />;
  else if (passkeys.isError) {
    body = (
      <LoadError
        title={t('adminPanel.account.passkeys.loadFailed')}
        message={errorMessage(passkeys.error)}
        retryLabel={t('common.retry')}
        onRetry={() => void passkeys.refetch()}
      />
    );
  } else if (items.length === 0) {
    body = (
      <div className="flex items-center gap-3 rounded-lg border border-dashed border-border px-4 py-5 text-sm text-muted-foreground">
        <Fingerprint className="size-5 shrink-0" aria-hidden="true" />
        {t('adminPanel.account.passkeys.empty')}
      </div>
    );
  } else {
    body = (
      <ul className="-my-3 divide-y divide-border">
        {items.map((key) => (
          <li key={key.id} className="flex items-center gap-3 py-3" data-testid="passkey-row">
            <KeyRound className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{key.name}</p>
              <p className="text-xs text-muted-foreground">
                {t('adminPanel.account.passkeys.added_at')} <RelativeTime iso={key.created_at} />
                {' · '}
                {key.last_used_at ? (
                  <>
                    {t('adminPanel.account.sessions.lastUsed')} <RelativeTime iso={key.last_used_at} />
                  </>
                ) : (
                  t('adminPanel.account.passkeys.neverUsed')
                )}
              </p>
            </div>
            <IconButton
              label={t('adminPanel.account.passkeys.rename', { name: key.name })}
              size="icon-sm"
              onClick={() => setEditing({ kind: 'rename', key })}
            >
              <Pencil className="size-4" />
            </IconButton>
            <IconButton
              label={t('adminPanel.account.passkeys.remove', { name: key.name })}
              size="icon-sm"
              className="text-destructive-soft-foreground"
              onClick={() => setRemoving(key)}
            >
              <Trash2 className="size-4" />
            </IconButton>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Section
      id="passkeys"
      title={t('adminPanel.account.passkeys.title')}
      description={t('adminPanel.account.passkeys.body')}
      action={
        supported && (
          <Button variant="secondary" size="sm" onClick={() => setEditing({ kind: 'add' })}>
            <Plus className="size-4" aria-hidden="true" />
            {t('adminPanel.account.passkeys.add')}
          </Button>
        )
      }
    >
      {!supported && <Alert tone="warning">{t('adminPanel.account.passkeys.unsupported')}</Alert>}
      {body}
      {editing && (
        <PasskeyDialog
          key={editing.kind === 'rename' ? editing.key.id : 'add'}
          mode={editing.kind === 'add' ? { kind: 'add' } : { kind: 'rename', id: editing.key.id }}
          initialName={editing.kind === 'rename' ? editing.key.name : ''}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('adminPanel.account.passkeys.removeTitle', { name: removing?.name ?? '' })}
        description={t('adminPanel.account.passkeys.removeBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => setRemoving(null),
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      />
    </Section>
  );
}
