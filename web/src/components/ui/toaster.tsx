import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasterState } from '../../lib/toast';

export { toast } from '../../lib/toast';

const SonnerToaster = lazy(() => import('./sonnerToaster'));

/** The toaster host: sonner loads and mounts with the first toast (lib/toast.ts). */
export function Toaster() {
  const wanted = useSyncExternalStore(toasterState.subscribe, toasterState.wanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}
