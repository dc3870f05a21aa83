import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Removes the throwaway data directory (and PostgreSQL database) the config created for this run. */
export default function globalTeardown(): void {
  const dir = process.env.CLIPNEST_E2E_DATA_DIR;
  if (dir && /clipnest-e2e-/.test(dir)) rmSync(dir, { recursive: true, force: true });
  const server = process.env.CLIPNEST_E2E_DATABASE_URL;
  const database = process.env.CLIPNEST_E2E_PG_DATABASE;
  if (server && database && /^clipnest_e2e_[a-z0-9]+$/.test(database)) {
    execFileSync('psql', [server, '-q', '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`]);
  }
}
