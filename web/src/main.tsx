import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Before anything parses: zod without eval (the shell's CSP forbids it).
import './lib/zodJitless';
// First: the runtime config is captured before anything else runs or renders (see the module).
import './lib/runtimeConfig';
import './index.css';
import './lib/i18n';
import './lib/theme';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
