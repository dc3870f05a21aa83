import { createElement } from 'react';
// The build for web runtimes: no Node builtins (which the server's ESM bundle could not `require`), and
// renderToString is all this needs.
import { renderToString } from 'react-dom/server.browser';
import { PastePrepaint, type PrepaintPaste } from '../../../web/src/features/paste-view/PastePrepaint';

/**
 * The first paint of an open plain-text paste's page (issue 36.4), rendered with React's own server renderer from the
 * web app's component and written into the shell's `#root` (appShellCsp.ts); the app replaces it on its first render.
 * React escapes every text: the paste can add no markup. Only what LinkPreviewService.pastePage hands out gets
 * here: never a password-protected, end-to-end encrypted, view-limited or expired paste, and reading it counts no
 * view. Markdown is not rendered here (the server has no HTML sanitiser): its page renders on the client as before.
 */
export function prepaintPaste(paste: PrepaintPaste): string {
  return renderToString(createElement(PastePrepaint, { paste }));
}
