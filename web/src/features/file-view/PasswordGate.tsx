import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { serverDetail } from '../../components/ui/error-details';
import { errorMessage } from '../../lib/api';
import { useTranslation } from '../../lib/useTranslation';
import { fileErrorKind } from './api';
import { FileErrorState } from './FileErrorState';
import { PasswordPrompt } from './PasswordPrompt';

/** A password tried against a link: busy while `check` runs; a refused one gives the inline error to show. */
export function usePasswordCheck(check: (password: string) => Promise<void>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; detail?: string } | undefined>();
  const verify = async (password: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await check(password);
    } catch (failure) {
      if (fileErrorKind(failure) === 'unauthorized')
        setError({ message: t('errors.fileView.wrongPasswordRetry'), detail: serverDetail(failure) });
      else setError({ message: errorMessage(failure), detail: serverDetail(failure) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, verify };
}

/**
 * What a public link shows before its content: `skeleton` while it loads, the error state when it fails, the
 * password prompt while it needs one; else `children` with the link's info.
 */
export function PasswordGate<T extends { requires_password: boolean }>({
  info,
  skeleton,
  check,
  texts,
  children,
}: {
  info: UseQueryResult<T>;
  skeleton: ReactNode;
  check: ReturnType<typeof usePasswordCheck>;
  texts: { title: string; body: string; submit: string };
  children: (data: T) => ReactNode;
}) {
  if (info.isPending) return skeleton;
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
        onSubmit={(password) => void check.verify(password)}
        busy={check.busy}
        error={check.error?.message}
        detail={check.error?.detail}
        texts={texts}
      />
    );
  return children(info.data);
}
