import { sql, type Kysely, type Selectable } from 'kysely';
import type { AdminTokensTable, Database } from '../db/schema.js';

export type AdminTokenRow = Selectable<AdminTokensTable>;
export type ValidToken = Pick<AdminTokenRow, 'admin_id' | 'expires_at' | 'id' | 'last_used_at'> & { username: string };

/** Admin sign-ins: one row per token (only its hash), which is also the session the account page lists. */
export class AdminTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AdminTokenRow): Promise<void> {
    await this.db.insertInto('admin_tokens').values(row).execute();
  }

  /** The token and its admin, if the token exists and has not expired at `nowIso` (one primary-key lookup). */
  async findValid(tokenHash: string, nowIso: string): Promise<ValidToken | undefined> {
    // Plain SQL: this runs on every admin request, and the builder's compile step was a visible share of it.
    const { rows } = await sql<ValidToken>`
      select t.admin_id, t.expires_at, t.id, t.last_used_at, a.username
        from admin_tokens t join admins a on a.id = t.admin_id
       where t.token_hash = ${tokenHash} and t.expires_at > ${nowIso}`.execute(this.db);
    return rows[0];
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
