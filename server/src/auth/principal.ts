/** Who is making a request, once their credentials have been checked. */
export interface AdminPrincipal {
  type: 'admin';
  adminId: string;
  username: string;
  tokenHash: string;
  expiresAt: string;
  /** The session's public id (empty when the admin acts without a session: WebDAV, a resumed task). */
  sessionId?: string;
  /**
   * Set by WebDAV on the principal it hands the tree: WebDAV checked the locks a write touches itself (with the
   * tokens of the If header), so the Vfs's write guard leaves it alone.
   */
  locksChecked?: true;
}

export interface ApiKeyPrincipal {
  type: 'apikey';
  keyId: string;
  name: string;
  permissions: number;
  basicPath: string;
  isGuest: 0 | 1;
  role: string;
  expiresAt: string | null;
  /**
   * Set by WebDAV on the principal it hands the tree: WebDAV checked the locks a write touches itself (with the
   * tokens of the If header), so the Vfs's write guard leaves it alone.
   */
  locksChecked?: true;
}

export type Principal = AdminPrincipal | ApiKeyPrincipal;

/** The value stored in `created_by` columns (spec §3: `apikey:<id>` or the admin's id). */
export function creatorId(principal: Principal): string {
  return principal.type === 'admin' ? principal.adminId : keyCreatorId(principal.keyId);
}

/** `creatorId` of the API key with this id. */
export function keyCreatorId(keyId: string): string {
  return `apikey:${keyId}`;
}

/**
 * Whether `principal` owns a share made by `createdBy`: the admin owns every share, a key the ones it created.
 * Owners see their own shares without a password and without using up a view.
 */
export function ownsShare(createdBy: string | null, principal: Principal | null): boolean {
  if (!principal) return false;
  return principal.type === 'admin' || createdBy === creatorId(principal);
}
