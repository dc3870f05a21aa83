import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First: the runtime config is captured before anything else runs or renders (see the module).
import './lib/runtimeConfig';
import './index.css';
import { i18nReady } from './lib/i18n';
import './lib/theme';
import { App } from './app/App';
import { preloadScreen } from './app/router';
import { getSession } from './lib/auth';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// The first screen's code and texts start loading now, next to the core texts the shell renders with, and the
// first render waits for both (index.html preloads them with the shell): the page renders once, not a loading
// state first. A screen that fails to load renders its error in the shell.
const firstScreen = preloadScreen(window.location.pathname, getSession().type !== 'none').catch(() => undefined);
await Promise.all([i18nReady, firstScreen]);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
