/**
 * An end-to-end encrypted paste (docs/encryption.md): decrypted here with the key of the link fragment (and
 * the password, when the paste has one). Loaded lazily, only for encrypted pastes. The ciphertext stays in
 * memory, so a wrong password can be retried without using another view (burn after reading keeps working).
 */
import type { PasteView } from '@clipnest/contract';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { decryptPaste, isE2eeError, parseLinkKey, pasteNeedsPassword, type E2eeErrorCode } from '../../lib/e2ee';
import { PasswordPrompt, PasteSkeleton } from './PasteStates';

type State =
  | { kind: 'decrypting' }
  | { kind: 'password'; error: string | null; busy: boolean }
  | { kind: 'failed'; code: E2eeErrorCode }
  | { kind: 'open'; paste: PasteView };

function E2eeFailure({ code }: { code: E2eeErrorCode }) {
  const { t } = useTranslation();
  return (
    <section
      className="mx-auto flex w-full max-w-lg flex-col items-center rounded-2xl border border-border bg-surface p-8 text-center shadow-sm"
      data-testid={`paste-e2ee-${code}`}
      role="alert"
    >
      <div className="grid size-12 place-items-center rounded-full bg-destructive-soft text-destructive-soft-foreground">
        <ShieldAlert className="size-6" aria-hidden="true" />
      </div>
      <h1 className="mt-4 text-xl font-semibold tracking-tight">{t(`paste.view.e2ee.${code}Title`)}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{t(`paste.view.e2ee.${code}Body`)}</p>
    </section>
  );
}

export default function EncryptedPaste({
  paste,
  render,
}: {
  paste: PasteView;
  render: (decrypted: PasteView, linkKey: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const fragment = typeof window === 'undefined' ? '' : window.location.hash;
  // What can be told before any crypto runs: a missing or malformed key, or that a password is needed.
  const [state, setState] = useState<State>(() => {
    try {
      parseLinkKey(fragment);
    } catch (error) {
      return { kind: 'failed', code: isE2eeError(error) ? error.code : 'bad_key' };
    }
    return pasteNeedsPassword(paste.encryption!)
      ? { kind: 'password', error: null, busy: false }
      : { kind: 'decrypting' };
  });

  /** The state after one decryption attempt. */
  async function attempt(password?: string): Promise<State> {
    try {
      const plain = await decryptPaste(paste.content, paste.encryption!, fragment, password);
      return { kind: 'open', paste: { ...paste, content: plain.content, remark: plain.remark, type: plain.type } };
    } catch (error) {
      const code: E2eeErrorCode = isE2eeError(error) ? error.code : 'tampered';
      if (password !== undefined && code === 'wrong_key') {
        return { kind: 'password', error: t('paste.view.e2eeWrongPassword'), busy: false };
      }
      return { kind: 'failed', code };
    }
  }
  const open = (password?: string) => void attempt(password).then(setState);

  useEffect(() => {
    if (state.kind === 'decrypting') void attempt().then(setState);
    // Decrypt once per paste (the page keys this component by slug).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [paste]);

  if (state.kind === 'decrypting') return <PasteSkeleton />;
  if (state.kind === 'failed') return <E2eeFailure code={state.code} />;
  if (state.kind === 'password') {
    return (
      <PasswordPrompt
        slug={paste.slug}
        busy={state.busy}
        error={state.error}
        title={t('paste.view.e2eePasswordTitle')}
        body={t('paste.view.e2eePasswordBody', { slug: paste.slug })}
        onSubmit={(password) => {
          setState({ kind: 'password', error: null, busy: true });
          open(password);
        }}
      />
    );
  }
  return <>{render(state.paste, fragment.replace(/^#/, ''))}</>;
}
