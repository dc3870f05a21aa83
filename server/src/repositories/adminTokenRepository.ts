import type { Kysely, Selectable } from 'kysely';
import type { AdminTokensTable, Database } from '../db/schema.js';

export type AdminTokenRow = Selectable<AdminTokensTable>;

export class AdminTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AdminTokenRow): Promise<void> {
    await this.db.insertInto('admin_tokens').values(row).execute();
  }

  /** The token and its admin, if the token exists and has not expired at `nowIso`. */
  findValid(tokenHash: string, nowIso: string) {
    return this.db
      .selectFrom('admin_tokens')
      .innerJoin('admins', 'admins.id', 'admin_tokens.admin_id')
      .select(['admin_tokens.admin_id', 'admin_tokens.expires_at', 'admins.username'])
      .where('admin_tokens.token_hash', '=', tokenHash)
      .where('admin_tokens.expires_at', '>', nowIso)
      .executeTakeFirst();
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('token_hash', '=', tokenHash).execute();
  }

  async deleteAllOf(adminId: string): Promise<void> {
    await this.db.deleteFrom('admin_tokens').where('admin_id', '=', adminId).execute();
  }

  async deleteExpired(nowIso: string): Promise<number> {
    const result = await this.db.deleteFrom('admin_tokens').where('expires_at', '<=', nowIso).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
