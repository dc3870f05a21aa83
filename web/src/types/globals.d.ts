export {};

declare global {
  interface Window {
    /**
     * Optional runtime config injected by the hosting page (e.g. a reverse proxy or container
     * entrypoint). Untrusted shape (DOM clobbering can put an Element here): read it only through
     * lib/runtimeConfig.ts, which validates it once at boot.
     */
    __CLIPNEST_CONFIG__?: unknown;
  }
}

declare global {
  /** The app version (package.json), set by Vite's `define`. */
  const __APP_VERSION__: string | undefined;
}
