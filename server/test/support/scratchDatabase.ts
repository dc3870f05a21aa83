import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { DbTarget } from './harness.js';

/** A database of its own (SQLite file or PostgreSQL schema) for migrating step by step. */
export async function scratchDatabase(target: DbTarget): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (target === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-counters-'));
    const handle = openDatabase(`sqlite:${path.join(dir, 'clipnest.db')}`);
    return {
      handle,
      async drop() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL ?? '';
  const schema = `c_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const handle = openDatabase(url, { pgSchema: schema });
  return {
    handle,
    async drop() {
      await handle.close();
      await admin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}
