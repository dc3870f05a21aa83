import { Component, type ReactNode } from 'react';
import i18n from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { OfflineFallback } from './OfflineFallback';

/** A screen's lazy code that failed to load: a dynamic import rejected (offline and not cached, or a deploy). */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to fetch/i.test(
    message,
  );
}

/**
 * Around the routed screen: when its code cannot load, the offline fallback page (back to home, back,
 * retry) replaces it inside the shell; online (the server unreachable, or a new deploy) a toast says the page
 * is temporarily unreachable (spec §8). Other errors are rethrown.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    if (isChunkLoadError(error) && navigator.onLine) toast.error(i18n.t('pwa.pageUnreachable'), { duration: 3000 });
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return <OfflineFallback online={navigator.onLine} onRetry={() => window.location.reload()} />;
  }
}
