/** Header a share's (or an upload link's) password travels in (or `?password=` for plain links). No zod here: the
 * public pages import it without pulling the schemas into their bundle. */
export const SHARE_PASSWORD_HEADER = 'X-Share-Password';
