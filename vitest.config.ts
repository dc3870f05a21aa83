import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
