import type { Kysely, Selectable } from 'kysely';
import type { AdminTokensTable, Database } from '../db/schema.js';

export type AdminTokenRow = Selectable<AdminTokensTable>;

/** Admin sign-ins: one row per token (only its hash), which is also the session the account page lists. */
export class AdminTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AdminTokenRow): Promise<void> {
    await this.db.insertInto('admin_tokens').values(row).execute();
  }

  /** The token and its admin, if the token exists and has not expired at `nowIso` (one primary-key lookup). */
  findValid(tokenHash: string, nowIso: string) {
    return this.db
      .selectFrom('admin_tokens')
      .innerJoin('admins', 'admins.id', 'admin_tokens.admin_id')
      .select([
        'admin_tokens.admin_id',
        'admin_tokens.expires_at',
        'admin_tokens.id',
        'admin_tokens.last_used_at',
        'admins.username',
      ])
      .where('admin_tokens.token_hash', '=', tokenHash)
      .where('admin_tokens.expires_at', '>', nowIso)
      .executeTakeFirst();
  }

  /** Records a use; skipped (no write) when the last one recorded is after `notBefore`. */
  async touch(tokenHash: string, nowIso: string, notBefore: string): Promise<void> {
    await this.db
      .updateTable('admin_tokens')
      .set({ last_used_at: nowIso })
      .where('token_hash', '=', tokenHash)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)]))
      .execute();
  }

  /** The admin's sessions that have not expired, the most recently used first. */
  listValid(adminId: string, nowIso: string): Promise<AdminTokenRow[]> {
    return this.db
      .selectFrom('admin_tokens')
      .selectAll()
      .where('admin_id', '=', adminId)
      .where('expires_at', '>', nowIso)
      .orderBy('last_used_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends one session of the admin by its public id; false when there is none. */
  async deleteById(adminId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('admin_tokens')
      .where('admin_id', '=', adminId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(adminId: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('admin_id', '=', adminId).execute();
  }

  /** Ends every session of the admin but the one with `keepTokenHash`; answers how many ended. */
  async deleteAllOfExcept(adminId: string, keepTokenHash: string): Promise<number> {
    const result = await this.db
      .deleteFrom('admin_tokens')
      .where('admin_id', '=', adminId)
      .where('token_hash', '!=', keepTokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpired(nowIso: string): Promise<number> {
    const result = await this.db.deleteFrom('admin_tokens').where('expires_at', '<=', nowIso).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
