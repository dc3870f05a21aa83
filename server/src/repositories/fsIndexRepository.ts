import { createHash } from 'node:crypto';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, FsIndexTable } from '../db/schema.js';

export type FsIndexRow = FsIndexTable;

/** Where a search may look: one mount, whole or below a driver-relative folder. */
export interface IndexScope {
  mountId: string;
  /** Driver-relative folder ('' or undefined = the whole mount). */
  under?: string;
}

const BATCH = 200;

/** `%`, `_` and the escape character itself taken literally in a LIKE pattern (ESCAPE '\'). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export function indexId(mountId: string, relPath: string): string {
  return createHash('sha256').update(`${mountId}\u0000${relPath}`).digest('hex').slice(0, 64);
}

function normalise(row: FsIndexRow): FsIndexRow {
  return { ...row, size: Number(row.size), is_dir: Number(row.is_dir) };
}

/** The name index of the fs search (0011 fs_index): paths are driver-relative, per mount. */
export class FsIndexRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async upsert(rows: FsIndexRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      await this.db
        .insertInto('fs_index')
        .values(rows.slice(i, i + BATCH))
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            name_lower: eb.ref('excluded.name_lower'),
            is_dir: eb.ref('excluded.is_dir'),
            size: eb.ref('excluded.size'),
            last_modified: eb.ref('excluded.last_modified'),
            indexed_at: eb.ref('excluded.indexed_at'),
          })),
        )
        .execute();
    }
  }

  /** Drops a path and everything below it. */
  async removeTree(mountId: string, relPath: string): Promise<void> {
    let query = this.db.deleteFrom('fs_index').where('mount_id', '=', mountId);
    if (relPath !== '')
      query = query.where((eb) =>
        eb.or([eb('rel_path', '=', relPath), sql<SqlBool>`rel_path like ${likeLiteral(relPath) + '/%'} escape '\\'`]),
      );
    await query.execute();
  }

  /** How many children of a folder the index holds (a count over the (mount_id, parent) index: no rows read). */
  async countChildren(mountId: string, parent: string): Promise<number> {
    const row = await this.db
      .selectFrom('fs_index')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mount_id', '=', mountId)
      .where('parent', '=', parent)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** What the index holds of a folder's children: kind, size and time (the crawl compares them with storage). */
  async childStates(
    mountId: string,
    parent: string,
  ): Promise<Array<{ rel_path: string; is_dir: number; size: number; last_modified: string | null }>> {
    const rows = await this.db
      .selectFrom('fs_index')
      .select(['rel_path', 'is_dir', 'size', 'last_modified'])
      .where('mount_id', '=', mountId)
      .where('parent', '=', parent)
      .execute();
    return rows.map((row) => ({ ...row, is_dir: Number(row.is_dir), size: Number(row.size) }));
  }

  /** Whether anything of the mount is indexed (a mount never crawled has nothing to compare with). */
  async hasMount(mountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('fs_index')
      .select('id')
      .where('mount_id', '=', mountId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Rel paths of the indexed children of a folder. */
  async childPaths(mountId: string, parent: string): Promise<Array<{ rel_path: string; is_dir: number }>> {
    return this.db
      .selectFrom('fs_index')
      .select(['rel_path', 'is_dir'])
      .where('mount_id', '=', mountId)
      .where('parent', '=', parent)
      .execute();
  }

  /**
   * One page of names containing `needle` (lower-cased) in the scopes, folders first, and the total, in one scan:
   * `count(*) over ()` counts the matches before the limit. `mount_id || ''` keeps the planner off the
   * (mount_id, parent) index, whose row-by-row lookups are slower than scanning the table for a substring match
   * (docs/benchmarks.md, Figures moved out of the code).
   */
  async search(scopes: IndexScope[], needle: string, page: { limit: number; offset: number }) {
    if (scopes.length === 0) return { rows: [] as FsIndexRow[], total: 0 };
    const pattern = `%${likeLiteral(needle)}%`;
    const rows = await this.db
      .selectFrom('fs_index')
      .selectAll()
      .select(sql<number>`count(*) over ()`.as('match_count'))
      .where(sql<SqlBool>`name_lower like ${pattern} escape '\\'`)
      .where((eb) =>
        eb.or(
          scopes.map((scope) => {
            const parts: Expression<SqlBool>[] = [sql<SqlBool>`mount_id || '' = ${scope.mountId}`];
            if (scope.under) parts.push(sql<SqlBool>`rel_path like ${likeLiteral(scope.under) + '/%'} escape '\\'`);
            return eb.and(parts);
          }),
        ),
      )
      .orderBy('is_dir', 'desc')
      .orderBy('name_lower')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    let total = Number(rows[0]?.match_count ?? 0);
    if (rows.length === 0 && page.offset > 0) {
      // Past the last page: count alone.
      total = (await this.search(scopes, needle, { limit: 1, offset: 0 })).total;
    }
    return { rows: rows.map(({ match_count: _, ...row }) => normalise(row)), total };
  }

  async countMount(mountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('fs_index')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mount_id', '=', mountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Drops the index of mounts that no longer exist. */
  async removeMountsExcept(mountIds: string[]): Promise<void> {
    let query = this.db.deleteFrom('fs_index');
    if (mountIds.length > 0) query = query.where('mount_id', 'not in', mountIds);
    await query.execute();
  }
}
