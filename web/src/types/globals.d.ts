export {};

declare global {
  interface Window {
    /** Optional runtime config injected by the hosting page (e.g. a reverse proxy or container entrypoint). */
    __CLIPNEST_CONFIG__?: { apiBaseUrl?: string };
  }
}
