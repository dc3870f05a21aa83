import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { Database, DavLocksTable, DavPropertiesTable } from '../db/schema.js';

export type DavLockRow = DavLocksTable;
export type DavPropertyRow = DavPropertiesTable;

/** `path` lies strictly below `dir` (LIKE with the wildcards of `dir` escaped; same on both databases). */
function below(dir: string) {
  const pattern = `${dir.replace(/[\\%_]/g, (ch) => `\\${ch}`)}/%`;
  return sql<SqlBool>`path like ${pattern} escape '\\'`;
}

/** Where a folder's tree token is kept (an internal property no client can read or write). */
export const FOLDER_TOKEN = { ns: 'urn:x-clipnest:webdav-internal', name: 'tree' } as const;

/** WebDAV dead properties and locks (migration 0013), keyed by virtual path. */
export class DavRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ---- properties ----

  async properties(path: string): Promise<DavPropertyRow[]> {
    return this.db.selectFrom('dav_properties').selectAll().where('path', '=', path).execute();
  }

  /** Applies sets and removes of one PROPPATCH in one transaction (all or nothing). */
  async patchProperties(
    path: string,
    changes: Array<{ op: 'set'; ns: string; name: string; value: string } | { op: 'remove'; ns: string; name: string }>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const change of changes) {
        await trx
          .deleteFrom('dav_properties')
          .where('path', '=', path)
          .where('ns', '=', change.ns)
          .where('name', '=', change.name)
          .execute();
        if (change.op === 'set') {
          await trx
            .insertInto('dav_properties')
            .values({ path, ns: change.ns, name: change.name, value: change.value })
            .execute();
        }
      }
    });
  }

  /** Gives folders a new tree token (their ETag changes); an upsert, so instances flushing at once both land. */
  async setFolderTokens(paths: string[], token: string): Promise<void> {
    for (let i = 0; i < paths.length; i += 500) {
      await this.db
        .insertInto('dav_properties')
        .values(
          paths.slice(i, i + 500).map((path) => ({ path, ns: FOLDER_TOKEN.ns, name: FOLDER_TOKEN.name, value: token })),
        )
        .onConflict((oc) => oc.columns(['path', 'ns', 'name']).doUpdateSet({ value: token }))
        .execute();
    }
  }

  /** The properties of several paths (a PROPFIND's resources). */
  async propertiesOf(paths: string[]): Promise<DavPropertyRow[]> {
    const out: DavPropertyRow[] = [];
    for (let i = 0; i < paths.length; i += 500) {
      const chunk = paths.slice(i, i + 500);
      out.push(...(await this.db.selectFrom('dav_properties').selectAll().where('path', 'in', chunk).execute()));
    }
    return out;
  }

  /** The properties of a folder and of its direct members (a Depth 1 PROPFIND), in one query. */
  async propertiesOfFolder(dir: string): Promise<DavPropertyRow[]> {
    const escaped = (dir === '/' ? '' : dir).replace(/[\\%_]/g, (ch) => `\\${ch}`);
    return this.db
      .selectFrom('dav_properties')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('path', '=', dir),
          eb.and([
            sql<SqlBool>`path like ${`${escaped}/%`} escape '\\'`,
            sql<SqlBool>`path not like ${`${escaped}/%/%`} escape '\\'`,
          ]),
        ]),
      )
      .execute();
  }

  /** Drops the properties of a path and everything below it. */
  async removePropertiesTree(path: string): Promise<void> {
    await this.db
      .deleteFrom('dav_properties')
      .where((eb) => eb.or([eb('path', '=', path), below(path)]))
      .execute();
  }

  /**
   * Copies the properties of a tree (or of the path alone) to another path (the target's own are replaced).
   * Folder tokens stay where they are: the copy's folders get their own from the change itself.
   */
  async copyPropertiesTree(from: string, to: string, selfOnly: boolean): Promise<void> {
    const rows = (
      await this.db
        .selectFrom('dav_properties')
        .selectAll()
        .where((eb) => (selfOnly ? eb('path', '=', from) : eb.or([eb('path', '=', from), below(from)])))
        .execute()
    ).filter((row) => !(row.ns === FOLDER_TOKEN.ns && row.name === FOLDER_TOKEN.name));
    await this.removePropertiesTree(to);
    if (rows.length === 0) return;
    await this.db
      .insertInto('dav_properties')
      .values(rows.map((row) => ({ ...row, path: to + row.path.slice(from.length) })))
      .onConflict((oc) => oc.columns(['path', 'ns', 'name']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
      .execute();
  }

  // ---- locks ----

  /**
   * Runs `fn` in a transaction that no other lock writer (of this or another instance) runs beside: on
   * PostgreSQL the transaction takes dav_locks in SHARE ROW EXCLUSIVE mode (writers wait, readers do not);
   * on SQLite its first statement (dropping expired locks) takes the database's write lock. So a check for
   * conflicting locks and the insert that follows it are one atomic step.
   */
  async exclusively<T>(now: string, fn: (repo: DavRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (dialectOf(trx) === 'postgres') await sql`lock table dav_locks in share row exclusive mode`.execute(trx);
      await trx.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
      return fn(new DavRepository(trx));
    });
  }

  /** Unexpired locks on `path`, on its ancestors, or (with `below`) on anything under it. */
  async locksAround(path: string, ancestors: string[], now: string, withBelow: boolean): Promise<DavLockRow[]> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('expires_at', '>', now)
      .where((eb) =>
        eb.or([eb('path', 'in', [path, ...ancestors]), ...(withBelow ? [below(path === '/' ? '' : path)] : [])]),
      )
      .execute();
  }

  async lockByToken(token: string, now: string): Promise<DavLockRow | undefined> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('token', '=', token)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async insertLock(row: DavLockRow): Promise<void> {
    await this.db.insertInto('dav_locks').values(row).execute();
  }

  /** Every unexpired lock, oldest first (the admin's list). */
  async listLocks(now: string): Promise<DavLockRow[]> {
    return this.db
      .selectFrom('dav_locks')
      .selectAll()
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .orderBy('token')
      .execute();
  }

  /** Drops every lock taken by `principal` (a key that was disabled or deleted); answers how many. */
  async deleteLocksOf(principal: string): Promise<number> {
    const result = await this.db.deleteFrom('dav_locks').where('principal', '=', principal).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
      .where('token', '=', token)
      .execute();
  }

  async deleteLock(token: string): Promise<number> {
    const result = await this.db.deleteFrom('dav_locks').where('token', '=', token).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Drops the locks strictly below a path (its own stay), and expired ones. */
  async removeLocksBelow(path: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('dav_locks')
      .where((eb) => eb.or([below(path), eb('expires_at', '<=', now)]))
      .execute();
  }

  /** Drops the locks of a path and everything below it, and expired ones. */
  async removeLocksTree(path: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('dav_locks')
      .where((eb) => eb.or([eb('path', '=', path), below(path), eb('expires_at', '<=', now)]))
      .execute();
  }
}
