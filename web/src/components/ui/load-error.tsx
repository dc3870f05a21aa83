import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';

/** Danger alert for a failed query: what failed, the server message and a retry button. */
export function LoadError({
  title,
  message,
  retryLabel,
  onRetry,
}: {
  title: ReactNode;
  message: ReactNode;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <Alert tone="danger" title={title}>
      <p>{message}</p>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        {retryLabel}
      </Button>
    </Alert>
  );
}
