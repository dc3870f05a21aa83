import type { Kysely, Selectable } from 'kysely';
import type { AdminsTable, Database } from '../db/schema.js';

export type AdminRow = Selectable<AdminsTable>;

export class AdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  count(): Promise<number> {
    return this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  findByUsername(username: string): Promise<AdminRow | undefined> {
    return this.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findById(id: string): Promise<AdminRow | undefined> {
    return this.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: AdminRow): Promise<void> {
    await this.db.insertInto('admins').values(row).execute();
  }

  async update(
    id: string,
    changes: Partial<Pick<AdminRow, 'username' | 'password_hash' | 'updated_at'>>,
  ): Promise<void> {
    await this.db.updateTable('admins').set(changes).where('id', '=', id).execute();
  }
}
