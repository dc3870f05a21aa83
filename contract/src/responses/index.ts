// Schemas of what the API answers, for the OpenAPI document (server/src/http/openapi) and tests that check real
// answers. A subpath of its own (`@clipnest/contract/responses`): the web app never loads them.
export * from './define.js';
export * from './system.js';
export * from './settings.js';
export * from './shares.js';
export * from './storage.js';
export * from './fs.js';
export * from './uploads.js';
export * from './admin.js';
export * from './security.js';
export * from './folderShares.js';
export * from './uploadRequests.js';
