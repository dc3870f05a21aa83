import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First: the runtime config is captured before anything else runs or renders (see the module).
import './lib/runtimeConfig';
import './index.css';
import { i18nReady } from './lib/i18n';
import './lib/theme';
import { App } from './app/App';
import { preloadScreen } from './app/router';
import { getSession } from './lib/auth';
import { prefetchSiteConfig } from './lib/siteConfig';
import { prefetchFirstRead } from './app/firstRead';

/** How long the first render waits at most for the site config (title, footer) before it shows the defaults. */
const SITE_CONFIG_WAIT_MS = 1500;

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// The first screen's code and texts start loading now, next to the core texts the shell renders with, and the
// first render waits for both (index.html preloads them with the shell): the page renders once, not a loading
// state first. A screen that fails to load renders its error in the shell.
// The site config is fetched alongside, so the header and footer do not render twice; a shared paste or file
// is requested too (not waited for), so its answer does not wait for the screen's code.
prefetchFirstRead(window.location.pathname);
const firstScreen = preloadScreen(window.location.pathname, getSession().type !== 'none').catch(() => undefined);
const siteConfig = Promise.race([
  prefetchSiteConfig(),
  new Promise((resolve) => setTimeout(resolve, SITE_CONFIG_WAIT_MS)),
]);
await Promise.all([i18nReady, firstScreen, siteConfig]);
// A public page comes with a first paint by the server (server/src/http/sharePrepaint.ts: the frame with the site
// title, and an open plain-text paste's text): static markup, not the app's own tree, so it is not hydrated. The
// root's first render replaces it whole. As a transition, React renders it in slices that yield to the browser
// every few milliseconds instead of one long task (the server's first paint stays on screen meanwhile).
const appRoot = createRoot(root);
startTransition(() =>
  appRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
