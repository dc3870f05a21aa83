// Types for the TypeScript callers of server-bundle.mjs (the e2e config).
export const serverBundle: string;
export const serverNodeFlags: string[];
export function buildServerBundle(): Promise<string>;
