import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const server = readJson('server/package.json');
const lock = readJson('package-lock.json');

describe('server dependencies', () => {
  it('pins every @aws-sdk package to one version, in package.json and in the lock', () => {
    const pinned = Object.entries(server.dependencies).filter(([name]) => name.startsWith('@aws-sdk/'));
    expect(pinned.length).toBeGreaterThan(1);
    const versions = new Set(pinned.map(([, version]) => version));
    expect([...versions], 'server/package.json @aws-sdk versions').toHaveLength(1);
    for (const [name, version] of pinned) {
      expect(lock.packages[`node_modules/${name}`]?.version, `${name} in package-lock.json`).toBe(version);
    }
  });

  it('keeps development tools out of the runtime dependencies (npm start runs a bundle)', () => {
    const runtime = Object.keys(server.dependencies);
    for (const tool of ['tsx', 'typescript', 'vitest', 's3rver', 'esbuild']) expect(runtime).not.toContain(tool);
    expect(Object.keys(server.devDependencies)).toContain('tsx');
  });
});
