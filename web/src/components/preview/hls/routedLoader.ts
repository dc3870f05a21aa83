import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext } from 'hls.js/light';

/** The address hls.js sees for a playlist or segment at `path`: same origin, never fetched as it is. */
const PREFIX = '/__hls__';

export function virtualUrl(path: string): string {
  return `${window.location.origin}${PREFIX}${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The folder path a virtual URL stands for, or null for any other URL (another origin, an absolute path). */
export function pathOfVirtualUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== window.location.origin || !parsed.pathname.startsWith(`${PREFIX}/`)) return null;
  try {
    return decodeURIComponent(parsed.pathname.slice(PREFIX.length));
  } catch {
    return null;
  }
}

/**
 * A loader class for hls.js that fetches playlists and segments through `resolve`: hls.js resolves relative
 * URIs against the virtual address of the playlist (the same folder), and the loader turns each such path into
 * the real link (an explorer download, a folder share's file URL). A path `resolve` refuses, and any URL that is
 * not a virtual one (another origin), fails as a 404 without a request.
 */
export function routedLoader(
  Inner: new (config: HlsConfig) => Loader<LoaderContext>,
  resolve: (path: string) => string | null,
): new (config: HlsConfig) => Loader<LoaderContext> {
  return class RoutedLoader implements Loader<LoaderContext> {
    private readonly inner: Loader<LoaderContext>;
    context: LoaderContext | null = null;

    constructor(config: HlsConfig) {
      this.inner = new Inner(config);
    }

    get stats() {
      return this.inner.stats;
    }

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      this.context = context;
      const path = pathOfVirtualUrl(context.url);
      const real = path === null ? null : resolve(path);
      if (real === null) {
        queueMicrotask(() => callbacks.onError({ code: 404, text: 'not reachable' }, context, null, this.inner.stats));
        return;
      }
      this.inner.load({ ...context, url: real }, config, {
        // The answer keeps the virtual address: the next relative URIs resolve in the same folder again.
        onSuccess: (response, stats, _inner, details) =>
          callbacks.onSuccess({ ...response, url: context.url }, stats, context, details),
        onError: (error, _inner, details, stats) => callbacks.onError(error, context, details, stats),
        onTimeout: (stats, _inner, details) => callbacks.onTimeout(stats, context, details),
        onAbort: callbacks.onAbort && ((stats, _inner, details) => callbacks.onAbort?.(stats, context, details)),
        onProgress:
          callbacks.onProgress &&
          ((stats, _inner, data, details) => callbacks.onProgress?.(stats, context, data, details)),
      });
    }

    abort(): void {
      this.inner.abort();
    }

    destroy(): void {
      this.inner.destroy();
    }

    getCacheAge(): number | null {
      return this.inner.getCacheAge?.() ?? null;
    }

    getResponseHeader(name: string): string | null {
      return this.inner.getResponseHeader?.(name) ?? null;
    }
  };
}
