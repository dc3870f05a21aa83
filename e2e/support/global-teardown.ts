import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Removes the throwaway data directories (and PostgreSQL databases, one per server) the config made for this run. */
export default function globalTeardown(): void {
  const dir = process.env.CLIPNEST_E2E_RUN_DIR;
  if (dir && /clipnest-e2e-/.test(dir)) rmSync(dir, { recursive: true, force: true });
  const server = process.env.CLIPNEST_E2E_DATABASE_URL;
  const database = process.env.CLIPNEST_E2E_PG_DATABASE;
  const slots = Number(process.env.CLIPNEST_E2E_SLOTS ?? 1);
  if (server && database && /^clipnest_e2e_[a-z0-9]+$/.test(database)) {
    for (let slot = 0; slot < slots; slot++)
      execFileSync('psql', [server, '-q', '-c', `DROP DATABASE IF EXISTS ${database}_${slot} WITH (FORCE)`]);
  }
}
