/** Shared by playwright.config.ts and the specs. */

/** The first server's port; each parallel worker has a server of its own (playwright.config.ts) on the next ones. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 8799);
/** This worker's slot (0 … workers − 1; 0 in the runner), and so its server. */
export const E2E_SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const E2E_PORT = E2E_BASE_PORT + E2E_SLOT;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-admin-pass-123' } as const;
