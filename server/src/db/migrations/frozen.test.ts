import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const sources = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/** Every module a file loads: static imports and re-exports (with whether they are type-only), dynamic imports. */
function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    found.push({ specifier: match[4]!, typeOnly: Boolean(match[2]) });
  }
  for (const match of source.matchAll(/\b(?:import|require)\s*\(\s*['"`]([^'"`]+)['"`]/g)) {
    found.push({ specifier: match[1]!, typeOnly: false });
  }
  return found;
}

describe('migrations are frozen history', () => {
  it('finds every migration and the list of them', () => {
    expect(sources).toContain('index.ts');
    expect(sources.filter((name) => /^\d{4}_/.test(name)).length).toBeGreaterThanOrEqual(14);
  });

  it.each(sources.filter((name) => name !== 'index.ts'))('%s loads nothing but kysely', (name) => {
    const loaded = importsOf(readFileSync(path.join(here, name), 'utf8'));
    expect(loaded.filter((i) => i.specifier !== 'kysely' && !i.typeOnly)).toEqual([]);
  });

  it('index.ts loads only the migrations of this folder', () => {
    const loaded = importsOf(readFileSync(path.join(here, 'index.ts'), 'utf8'));
    const other = loaded.filter(
      (i) => !(i.specifier === 'kysely' && i.typeOnly) && !/^\.\/\d{4}_[a-z0-9_]+\.js$/.test(i.specifier),
    );
    expect(other).toEqual([]);
  });

  it('the import scan sees what it must refuse', () => {
    const loaded = importsOf(
      [
        "import type { Kysely } from 'kysely';",
        "import { sql } from 'kysely';",
        "import { dialectOf } from '../database.js';",
        "import {\n  a,\n  b,\n} from '../counters.js';",
        "import '../side-effect.js';",
        "export { x } from './elsewhere.js';",
        "const m = await import('node:fs');",
      ].join('\n'),
    );
    expect(loaded).toEqual([
      { specifier: 'kysely', typeOnly: true },
      { specifier: 'kysely', typeOnly: false },
      { specifier: '../database.js', typeOnly: false },
      { specifier: '../counters.js', typeOnly: false },
      { specifier: '../side-effect.js', typeOnly: false },
      { specifier: './elsewhere.js', typeOnly: false },
      { specifier: 'node:fs', typeOnly: false },
    ]);
  });
});
