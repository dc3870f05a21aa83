/** Who is making a request, once their credentials have been checked. */
export interface AdminPrincipal {
  type: 'admin';
  adminId: string;
  username: string;
  tokenHash: string;
  expiresAt: string;
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
}

export type Principal = AdminPrincipal | ApiKeyPrincipal;

/** The value stored in `created_by` columns (spec §3: `apikey:<id>` or the admin's id). */
export function creatorId(principal: Principal): string {
  return principal.type === 'admin' ? principal.adminId : `apikey:${principal.keyId}`;
}

/**
 * Whether `principal` owns a share made by `createdBy`: the admin owns every share, a key the ones it created.
 * Owners see their own shares without a password and without using up a view.
 */
export function ownsShare(createdBy: string | null, principal: Principal | null): boolean {
  if (!principal) return false;
  return principal.type === 'admin' || createdBy === creatorId(principal);
}
