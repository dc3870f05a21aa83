import { deleteKey, listKeys } from './api';
import { BASE_URL } from './env';

export const DESKTOP_UA =
  'Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian-6.1.0-13-amd64 ClientArchitecture: x86_64 OsArchitecture: x86_64)';

/** Starts a Nextcloud Login Flow v2 as the desktop app does: the page path to open and the poll. */
export async function startLoginFlow(userAgent = DESKTOP_UA) {
  const res = await fetch(`${BASE_URL}/index.php/login/v2`, { method: 'POST', headers: { 'user-agent': userAgent } });
  const body = (await res.json()) as { poll: { token: string; endpoint: string }; login: string };
  const path = new URL(body.login).pathname;
  const poll = () =>
    fetch(body.poll.endpoint, { method: 'POST', body: new URLSearchParams({ token: body.poll.token }) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as { loginName?: string; appPassword?: string } }),
    );
  return { path, poll };
}

/** Deletes the app passwords approvals made (keys named after a Nextcloud app), so other specs see no extra keys. */
export async function deleteAppPasswords(token: string): Promise<void> {
  for (const key of await listKeys(token)) if (/^Nextcloud \(/.test(key.name)) await deleteKey(token, key.id);
}
