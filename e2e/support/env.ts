/** Shared by playwright.config.ts and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-admin-pass-123' } as const;
