import { readFileSync } from 'node:fs';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compressAssets } from './compressAssets.ts';
import { shellPrecache } from './pwaPrecache.ts';
import { routePreload } from './routePreload.ts';
import { firstLoadModules } from './src/app/routes.ts';

/** The app version (web/package.json): the offline database's version derives from it. */
function appVersion(): string {
  return (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const apiTarget = process.env.CLIPNEST_API_URL ?? 'http://127.0.0.1:8787';
const precache = shellPrecache();

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(appVersion()) },
  plugins: [
    react(),
    tailwindcss(),
    precache.plugin,
    VitePWA({
      // The app shows its own "new version" prompt instead of reloading behind the user's back.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'sw-sync.js'],
      manifest: {
        name: 'Clipnest',
        short_name: 'Clipnest',
        description: 'Self-hosted online clipboard and file sharing',
        theme_color: '#0f766e',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        navigateFallback: '/index.html',
        // The API, its reference page, raw/download endpoints and WebDAV are always live, never the app shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/api-docs(\/|$)/, /^\/dav(\/|$)/],
        cleanupOutdatedCaches: true,
        // Background sync of the offline queue (public/sw-sync.js).
        importScripts: ['/sw-sync.js'],
        // The first worker controls the page that installed it, so what that page loads next is kept for offline use.
        clientsClaim: true,
        // Only the shell is precached: screens and libraries load on demand (a paste link stays light).
        manifestTransforms: [precache.manifestTransform],
        // What is loaded on demand is kept once used (hashed names never change), so it works offline after.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'clipnest-lazy-assets', expiration: { maxEntries: 200 } },
          },
        ],
      },
    }),
    // The first screen of each path and its texts, as the route manifest declares them.
    routePreload(firstLoadModules()),
    compressAssets(),
  ],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs (the entry and its static imports) is one file, not ~30 small ones: each
          // request costs headers and a round trip on a slow link (issue 21). Screens stay their own chunks.
          groups: [{ name: 'shell', tags: ['$initial'] }],
          // Small modules shared by a few screens (icons, small UI parts) are copied into them instead of
          // becoming a request of a few hundred bytes each.
          experimentalInlineCommonChunks: { maxSize: 8 * 1024 },
        },
      },
    },
  },
});
