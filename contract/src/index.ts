export * from './apiKeys.js';
export * from './auth.js';
export * from './envelope.js';
export * from './errors.js';
export * from './paths.js';
export * from './permissions.js';
export * from './settings.js';
export * from './system.js';
