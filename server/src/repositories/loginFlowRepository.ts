import type { Kysely, Selectable } from 'kysely';
import type { Database, LoginFlowsTable } from '../db/schema.js';

export type LoginFlowRow = Selectable<LoginFlowsTable>;

export class LoginFlowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: LoginFlowRow): Promise<void> {
    await this.db.insertInto('login_flows').values(row).execute();
  }

  /** Flows not yet expired and still waiting for the admin, of one address or all (the caps count these). */
  async countPending(nowIso: string, address?: string): Promise<number> {
    let query = this.db
      .selectFrom('login_flows')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .where('expires_at', '>', nowIso);
    if (address !== undefined) query = query.where('address', '=', address);
    const row = await query.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  byLoginHash(hash: string): Promise<LoginFlowRow | undefined> {
    return this.db.selectFrom('login_flows').selectAll().where('login_token_hash', '=', hash).executeTakeFirst();
  }

  byPollHash(hash: string): Promise<LoginFlowRow | undefined> {
    return this.db.selectFrom('login_flows').selectAll().where('poll_token_hash', '=', hash).executeTakeFirst();
  }

  /**
   * Answers a pending flow (the link is spent: its hash is cleared). False when another request answered it
   * first or it expired meanwhile: one atomic UPDATE … WHERE status = 'pending'.
   */
  async answer(
    id: string,
    nowIso: string,
    changes: {
      status: 'approved' | 'denied';
      api_key_id?: string;
      login_name?: string;
      app_password_encrypted?: string;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('login_flows')
      .set({ ...changes, login_token_hash: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands the app password out once: approved → collected, the password cleared. False when already taken. */
  async collect(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('login_flows')
      .set({ status: 'collected', app_password_encrypted: null })
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Drops flows that ended before `beforeIso` (kept a while after expiry so late polls are known, not guesses). */
  async sweep(beforeIso: string): Promise<number> {
    const result = await this.db.deleteFrom('login_flows').where('expires_at', '<', beforeIso).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
