import type { Kysely, Selectable } from 'kysely';
import type { AdminSecondFactorTable, Database } from '../db/schema.js';

export type SecondFactorRow = Selectable<AdminSecondFactorTable>;

/** The admin's TOTP secret (encrypted), its last accepted step, and the hashed recovery codes. */
export class SecondFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(adminId: string): Promise<SecondFactorRow | undefined> {
    return this.db.selectFrom('admin_second_factor').selectAll().where('admin_id', '=', adminId).executeTakeFirst();
  }

  /** Whether any admin has TOTP on (WebDAV asks before it would check the admin password). */
  async anyEnabled(): Promise<boolean> {
    const row = await this.db
      .selectFrom('admin_second_factor')
      .select('admin_id')
      .where('totp_secret_encrypted', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async savePending(adminId: string, encrypted: string, now: string): Promise<void> {
    await this.db
      .insertInto('admin_second_factor')
      .values({ admin_id: adminId, totp_pending_encrypted: encrypted, totp_pending_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('admin_id').doUpdateSet({ totp_pending_encrypted: encrypted, totp_pending_at: now, updated_at: now }),
      )
      .execute();
  }

  /**
   * Makes the pending secret the active one (with the step of the code that confirmed it, so that code is spent)
   * and replaces the recovery codes, in one transaction. False when the pending secret changed meanwhile.
   */
  async enable(
    adminId: string,
    pendingEncrypted: string,
    step: number,
    now: string,
    recoveryCodes: { id: string; code_hash: string }[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('admin_second_factor')
        .set({
          totp_secret_encrypted: pendingEncrypted,
          totp_pending_encrypted: null,
          totp_pending_at: null,
          totp_enabled_at: now,
          totp_last_step: step,
          updated_at: now,
        })
        .where('admin_id', '=', adminId)
        .where('totp_pending_encrypted', '=', pendingEncrypted)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
      await trx
        .insertInto('admin_recovery_codes')
        .values(recoveryCodes.map((c) => ({ ...c, admin_id: adminId, created_at: now, used_at: null })))
        .execute();
      return true;
    });
  }

  async disable(adminId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('admin_second_factor').where('admin_id', '=', adminId).execute();
      await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
    });
  }

  /**
   * Records `step` as the last accepted one when it is later than the last: one atomic statement, so a code
   * replayed at once on another instance finds the step taken. False when the step (or a later one) was used.
   */
  async claimStep(adminId: string, step: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_second_factor')
      .set({ totp_last_step: step, updated_at: now })
      .where('admin_id', '=', adminId)
      .where('totp_secret_encrypted', 'is not', null)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Spends a recovery code: true once for an unused code of this admin, false after (one atomic statement). */
  async useRecoveryCode(adminId: string, codeHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_recovery_codes')
      .set({ used_at: now })
      .where('admin_id', '=', adminId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async replaceRecoveryCodes(adminId: string, now: string, codes: { id: string; code_hash: string }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
      await trx
        .insertInto('admin_recovery_codes')
        .values(codes.map((c) => ({ ...c, admin_id: adminId, created_at: now, used_at: null })))
        .execute();
    });
  }

  async unusedRecoveryCodes(adminId: string): Promise<number> {
    const row = await this.db
      .selectFrom('admin_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('admin_id', '=', adminId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
