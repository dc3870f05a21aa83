import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Integration files that replace modules with vi.mock: they run isolated. */
const ISOLATED = 'server/test/sendfileAbsent.int.test.ts';

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: on CI's two cores that is one, and the integration
    // files (most of their time spent waiting on servers, clients and sockets) ran one after the other. Each file
    // starts its own servers on free ports with its own data directory and PostgreSQL schema, so files run
    // side by side: three even on two cores (timings in docs/architecture.md, "Tests").
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          // Unit tests run beside the integration tier on two cores in CI: 5 s (the default) was too close for
          // the few that do real work (key derivation, compression); slow ones are made fast, not waited for.
          testTimeout: 15_000,
          include: [
            'contract/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'web/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['server/test/**/*.int.test.ts'],
          exclude: [ISOLATED],
          // Files of a worker share its loaded modules: importing the server's module graph anew for each of
          // ~110 files was most of the tier's CPU on CI's two cores. Every file builds its own servers and data.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Files that replace modules (vi.mock) get fresh ones of their own.
          name: 'integration-isolated',
          environment: 'node',
          include: [ISOLATED],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
