import { rmSync } from 'node:fs';

/** Removes the throwaway data directory the config created for this run. */
export default function globalTeardown(): void {
  const dir = process.env.CLIPNEST_E2E_DATA_DIR;
  if (dir && /clipnest-e2e-/.test(dir)) rmSync(dir, { recursive: true, force: true });
}
