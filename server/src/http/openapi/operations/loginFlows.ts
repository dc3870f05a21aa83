import { loginFlowApprovalSchema, loginFlowViewSchema } from '@clipnest/contract/responses';
import type { Operations } from '../operation.js';

const NEXTCLOUD =
  'Nextcloud Login Flow v2: an app starts a flow at POST /index.php/login/v2 (outside /api) and opens ' +
  '/connect/{token} in a browser, where the admin answers with these routes. The token is the one in that link.';

/** server/src/routes/loginFlowRoutes.ts */
export const loginFlowOperations: Operations = {
  'GET /api/admin/login-flows/{token}': {
    summary: 'The app asking to sign in',
    description: `${NEXTCLOUD} 404 when the link is unknown, already answered or expired (20 minutes).`,
    tag: 'API keys',
    access: 'admin',
    answer: { data: loginFlowViewSchema },
    errors: ['NOT_FOUND'],
  },
  'POST /api/admin/login-flows/{token}/approve': {
    summary: 'Let the app in',
    description:
      `${NEXTCLOUD} Makes an API key (the app password: mount and WebDAV permissions, no admin rights), which ` +
      'the app collects once at its next poll. The link is then spent.',
    tag: 'API keys',
    access: 'admin',
    answer: { data: loginFlowApprovalSchema },
    errors: ['NOT_FOUND'],
  },
  'POST /api/admin/login-flows/{token}/deny': {
    summary: 'Refuse the app',
    description: `${NEXTCLOUD} The app's polls go on answering 404 until the flow expires.`,
    tag: 'API keys',
    access: 'admin',
    answer: { data: null },
    errors: ['NOT_FOUND'],
  },
};
