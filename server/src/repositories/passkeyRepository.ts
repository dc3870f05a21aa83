import type { Kysely, Selectable } from 'kysely';
import type { AdminPasskeysTable, Database } from '../db/schema.js';

export type PasskeyRow = Selectable<AdminPasskeysTable>;

/** The admin's WebAuthn credentials and the single-use challenges of registrations and sign-ins. */
export class PasskeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOf(adminId: string): Promise<PasskeyRow[]> {
    return this.db
      .selectFrom('admin_passkeys')
      .selectAll()
      .where('admin_id', '=', adminId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async countOf(adminId: string): Promise<number> {
    const row = await this.db
      .selectFrom('admin_passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('admin_id', '=', adminId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db
      .selectFrom('admin_passkeys')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  async insert(row: PasskeyRow): Promise<void> {
    await this.db.insertInto('admin_passkeys').values(row).execute();
  }

  async rename(adminId: string, id: string, name: string): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_passkeys')
      .set({ name })
      .where('admin_id', '=', adminId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(adminId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('admin_passkeys')
      .where('admin_id', '=', adminId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** After a sign-in: the authenticator's new counter, when it was used. */
  async used(id: string, counter: number, now: string): Promise<void> {
    await this.db.updateTable('admin_passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
  }

  async saveChallenge(row: {
    id: string;
    admin_id: string | null;
    purpose: string;
    challenge: string;
    expires_at: string;
  }): Promise<void> {
    await this.db.insertInto('admin_challenges').values(row).execute();
  }

  /**
   * Takes a challenge: answers it once (deleting it, so every instance sees it spent) when it exists, has this
   * purpose and has not expired; undefined otherwise.
   */
  async takeChallenge(
    id: string,
    purpose: string,
    now: string,
  ): Promise<{ challenge: string; admin_id: string | null } | undefined> {
    const row = await this.db
      .deleteFrom('admin_challenges')
      .where('id', '=', id)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .returning(['challenge', 'admin_id'])
      .executeTakeFirst();
    return row;
  }

  async liveChallenges(purpose: string, now: string): Promise<number> {
    const row = await this.db
      .selectFrom('admin_challenges')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async sweepChallenges(now: string): Promise<number> {
    const result = await this.db.deleteFrom('admin_challenges').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
