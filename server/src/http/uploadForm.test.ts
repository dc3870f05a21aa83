import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { withUploadForm } from './uploadForm.js';

describe('withUploadForm', () => {
  it('a handler that fails at once leaves no spooled file and no error behind, however often', async () => {
    const spoolDir = mkdtempSync(path.join(tmpdir(), 'clipnest-spool-'));
    const app = new Hono();
    app.post('/up', (c) =>
      withUploadForm(c, { fields: ['slug'], locationFields: ['slug'], spoolDir }, async () => {
        throw new Error('refused');
      }).catch(() => c.text('refused', 400)),
    );
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            // The file before the field that decides where it goes: the file is spooled first.
            const form = new FormData();
            form.append('file', new Blob(['x'.repeat(100)]), 'a.txt');
            form.append('slug', 'bad slug');
            const res = await app.request('/up', { method: 'POST', body: form });
            expect(res.status).toBe(400);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});
