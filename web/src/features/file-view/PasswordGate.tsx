import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { serverDetail } from '../../components/ui/error-details';
import { errorMessage } from '../../lib/api';
import { useTranslation } from '../../lib/useTranslation';
import { fileErrorKind } from './api';
import { FileErrorState } from './FileErrorState';
import { PasswordPrompt } from './PasswordPrompt';

/**
 * The states of a public page behind an optional password (a folder share, an upload link): loading, the error
 * (with a retry), the password prompt while `requires_password`, then the page itself. `attempt` checks a password
 * with the server and keeps what it unlocks; it throws when the password is wrong.
 */
export function PasswordGate<T extends { requires_password?: boolean }>({
  info,
  loading,
  texts,
  attempt,
  children,
}: {
  info: UseQueryResult<T>;
  loading: ReactNode;
  texts: { title: string; body: string; submit: string };
  attempt: (password: string) => Promise<void>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<{ message: string; detail?: string } | undefined>();

  const verify = async (password: string) => {
    setBusy(true);
    setFailed(undefined);
    try {
      await attempt(password);
    } catch (error) {
      const message =
        fileErrorKind(error) === 'unauthorized' ? t('errors.fileView.wrongPasswordRetry') : errorMessage(error);
      setFailed({ message, detail: serverDetail(error) });
    } finally {
      setBusy(false);
    }
  };

  if (info.isPending) return loading;
  if (info.isError)
    return (
      <FileErrorState
        kind={fileErrorKind(info.error)}
        detail={serverDetail(info.error)}
        onRetry={() => void info.refetch()}
      />
    );
  if (info.data.requires_password)
    return (
      <PasswordPrompt
        onSubmit={(password) => void verify(password)}
        busy={busy}
        error={failed?.message}
        detail={failed?.detail}
        texts={texts}
      />
    );
  return children(info.data);
}
