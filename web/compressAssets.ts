/**
 * Precompresses the built text assets (brotli at maximum quality and gzip) beside each file, so the
 * server sends `app.js.br` / `app.js.gz` by `Accept-Encoding` without compressing anything per request.
 * Runs after every other plugin wrote its output (the service worker included).
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text types worth compressing. `index.html` is left out: the server answers it itself. */
export const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|wasm)$/i;
/** Smaller files fit one packet anyway. */
export const MIN_BYTES = 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `.br` and `.gz` beside every compressible file of `dir`; a variant that saves nothing is not written. */
export async function precompressDir(dir: string): Promise<number> {
  let written = 0;
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    const raw = await readFile(file);
    const variants: [string, Buffer][] = [
      [
        '.br',
        await brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
          },
        }),
      ],
      ['.gz', await gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION })],
    ];
    for (const [suffix, data] of variants) {
      if (data.byteLength >= raw.byteLength) continue;
      await writeFile(file + suffix, data);
      written += 1;
    }
  }
  return written;
}

export function compressAssets(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'clipnest:compress-assets',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        const count = await precompressDir(outDir);
        config.logger.info(`precompressed ${count} files (brotli, gzip)`);
      },
    },
  };
}
