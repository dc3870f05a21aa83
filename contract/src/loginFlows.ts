/** How long a Nextcloud Login Flow v2 waits for the admin's answer and the app's poll (Nextcloud's own: 20 min). */
export const LOGIN_FLOW_TTL_MS = 20 * 60 * 1000;

/** A Nextcloud/ownCloud app waiting for the admin to let it in (the approval page at /connect/<token>). */
export interface LoginFlowView {
  /** The app as its user agent names it: "Nextcloud (desktop 3.7.3, Linux)". */
  client_name: string;
  user_agent: string;
  /** The address the app asked from. */
  address: string;
  created_at: string;
  expires_at: string;
}

/** What approving made: the app password (an API key) the app collects on its next poll. */
export interface LoginFlowApproval {
  key_id: string;
  name: string;
}
