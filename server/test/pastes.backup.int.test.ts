import type { BackupFile, PasteView, RestoreResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createPaste } from './support/pastes.js';

/** The text_management backup module carries the pastes table: a paste moves to another install intact. */
describe.each(dbTargets)('paste backup and restore on %s', (target) => {
  let a: TestServer;
  let b: TestServer;
  let tokenA: string;
  let tokenB: string;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(target), startTestServer(target)]);
    [tokenA, tokenB] = await Promise.all([a.login(), b.login()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('backs up text_management and restores pastes with password, expiry and views', async () => {
    const open = await createPaste(
      a,
      { token: tokenA },
      { content: '# 标题\n\n$x^2$', slug: 'moved-open', max_views: 5 },
    );
    await createPaste(
      a,
      { token: tokenA },
      { content: 'locked', slug: 'moved-locked', password: 'pw', expires_in: 24 },
    );
    expect((await a.call('GET', `/api/paste/${open.slug}`)).status).toBe(200);

    const res = await fetch(`${a.url}/api/admin/backup/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ backup_type: 'modules', selected_modules: ['text_management'] }),
    });
    expect(res.status).toBe(200);
    const file = (await res.json()) as BackupFile;
    expect(Object.keys(file.tables)).toEqual(['pastes']);
    expect(file.tables.pastes?.rows).toHaveLength(2);

    const restored = await b.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenB,
      body: { mode: 'merge', backup: file },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.data?.restored.pastes).toBe(2);

    const viewed = await b.call<PasteView>('GET', '/api/paste/moved-open');
    expect(viewed.body.data).toMatchObject({ content: '# 标题\n\n$x^2$', views: 2, remaining_views: 3 });
    expect((await b.call('GET', '/api/paste/moved-locked')).body.data).toEqual({
      slug: 'moved-locked',
      requires_password: true,
    });
    expect((await b.call('POST', '/api/paste/moved-locked', { body: { password: 'pw' } })).status).toBe(200);
    // Restoring again in merge mode skips rows that exist; the slug stays unique.
    const again = await b.call<RestoreResult>('POST', '/api/admin/backup/restore', {
      token: tokenB,
      body: { mode: 'merge', backup: file },
    });
    expect(again.status).toBe(200);
    const rows = await b.built.database.db.selectFrom('pastes').select('slug').execute();
    expect(rows.map((r) => r.slug).sort()).toEqual(['moved-locked', 'moved-open']);
  });
});
