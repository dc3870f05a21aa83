import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Page features (home, paste-view, mount-explorer, …) compose domain features and never import each other;
// what two pages share lives in a domain feature, components/ or lib/ (ARCHITECTURE.md, web layering).
const DOMAIN_FEATURES = ['fs', 'pastes'];
// A page feature's api module other pages may read (the storage configs list for the mount form).
const SHARED_APIS = ['storage-config/api'];

const featuresDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function crossFeatureImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(featuresDir)) {
    const own = path.relative(featuresDir, file).split(path.sep)[0]!;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
      const spec = match[1]!;
      if (!spec.startsWith('.')) continue;
      const target = path.relative(featuresDir, path.resolve(path.dirname(file), spec));
      if (target.startsWith('..')) continue; // components/, lib/, app/
      const feature = target.split(path.sep)[0]!;
      if (feature === own) continue;
      const allowed =
        (DOMAIN_FEATURES.includes(feature) && !DOMAIN_FEATURES.includes(own)) ||
        SHARED_APIS.includes(target.split(path.sep).join('/'));
      if (!allowed) found.push(`${path.relative(featuresDir, file)} imports ${spec}`);
    }
  }
  return found;
}

describe('web feature boundaries', () => {
  it('pages import only domain features (fs, pastes), and domain features import no page', () => {
    expect(crossFeatureImports()).toEqual([]);
  });
});
