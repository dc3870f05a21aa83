// Dependencies only some servers use (a storage type, thumbnails, passkeys, PostgreSQL) load on first use, once:
// imported at start-up, each one would cost every server its memory (ssh2 alone compiles a WebAssembly module with a
// 16 MB memory), and a bigger heap makes every full collection slower, streamed transfers included
// (docs/benchmarks.md, Figures moved out of the code: 60 MB of heap at rest, 35 MB with these on first use).
import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type * as Ssh2 from 'ssh2';

const require = createRequire(import.meta.url);

/** A loader that runs `load` the first time it is called and answers the same promise after that. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

/** The same for a CommonJS package needed by synchronous code; `setUp` runs once, when it loads. */
function requiredOnFirstUse<T>(name: string, setUp?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = require(name) as T;
      setUp?.(loaded);
    }
    return loaded;
  };
}

export const ssh2 = requiredOnFirstUse<typeof Ssh2>('ssh2');

/** node-postgres, with int8 (COUNT, SUM, bigint sizes) read as numbers instead of strings. */
export const pg = requiredOnFirstUse<typeof Pg>('pg', (loaded) =>
  loaded.types.setTypeParser(20, (value) => Number(value)),
);
