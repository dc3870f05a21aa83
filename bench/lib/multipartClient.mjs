// The browser's multipart flow (web/src/features/upload/uploader/multipartUploader.ts), from Node:
// init; sign the first parts in one call; then per part one call that reports the part just PUT
// (its ETag) and signs the worker's next part just before use; re-sign on retry; complete.
import { open } from 'node:fs/promises';
import { api } from './api.mjs';

const CONCURRENCY = 3;
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 1000;

/** POST init of a multipart share upload. */
export function initMultipart(server, token, { configId, size, filename }) {
  return api(server, token, 'POST', '/api/upload/multipart/init', {
    s3_config_id: configId,
    filename,
    size,
    mimetype: 'application/octet-stream',
  });
}

/**
 * Uploads `file` (`size` bytes) to the storage config as a share.
 * @returns {Promise<{ init: object, view: object, calls: number }>} `calls`: API calls after init.
 */
export async function multipartUpload(server, token, { configId, file, size, filename }) {
  let calls = 0;
  const call = (method, urlPath, body) => {
    calls += 1;
    return api(server, token, method, urlPath, body);
  };
  const init = await initMultipart(server, token, { configId, size, filename });
  const missing = Array.from({ length: init.part_count }, (_, i) => i + 1);
  const unreported = new Map();
  const signed = new Map();
  const sign = async (partNumbers) => {
    const completed = [...unreported].map(([PartNumber, p]) => ({ PartNumber, ETag: p.etag, size: p.size }));
    unreported.clear();
    try {
      const out = await call('POST', '/api/upload/multipart/sign-parts', {
        file_id: init.file_id,
        part_numbers: partNumbers,
        ...(completed.length ? { completed } : {}),
      });
      for (const u of out.urls) signed.set(u.partNumber, u.url);
    } catch (error) {
      for (const p of completed)
        if (!unreported.has(p.PartNumber)) unreported.set(p.PartNumber, { etag: p.ETag, size: p.size });
      throw error;
    }
  };

  const handle = await open(file, 'r');
  const sendPart = async (n) => {
    const offset = (n - 1) * init.part_size;
    const length = Math.min(init.part_size, size - offset);
    const buffer = Buffer.allocUnsafe(length);
    await handle.read(buffer, 0, length, offset);
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt > 1 || !signed.has(n)) await sign([n]);
        const url = signed.get(n);
        signed.delete(n);
        const put = await fetch(url, { method: 'PUT', body: buffer });
        await put.arrayBuffer();
        const etag = put.headers.get('etag');
        if (!put.ok || !etag) throw new Error(`part ${n}: ${put.status}, no ETag obtained`);
        unreported.set(n, { etag, size: length });
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * attempt));
      }
    }
  };
  await sign(missing.slice(0, CONCURRENCY));
  let next = 0;
  const worker = async () => {
    while (next < missing.length) await sendPart(missing[next++]);
    // No next part to sign: report the last ones now (resume must know them).
    if (unreported.size) await sign([]);
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await handle.close();
  }
  const view = await call('POST', '/api/upload/multipart/complete', { file_id: init.file_id });
  if (view.size !== size) throw new Error(`completed size ${view.size}`);
  return { init, view, calls };
}
