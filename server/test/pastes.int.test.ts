import {
  Permission,
  PasteMessages,
  PASTE_MAX_BYTES,
  type PasteDetail,
  type PasteCreated,
  type PasteListResponse,
  type PasteLocked,
  type PasteView,
  type PastesDeleted,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createKey, createPaste, fetchRaw, pasteViewsToday } from './support/pastes.js';

const HOUR = 3600_000;

describe.each(dbTargets)('pastes on %s', (target) => {
  let server: TestServer;
  let token: string;
  let keyA: string;
  let keyB: string;
  let keyNoText: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    keyA = await createKey(server, token, 'writer-a', Permission.TEXT);
    keyB = await createKey(server, token, 'writer-b', Permission.TEXT | Permission.FILE_SHARE);
    keyNoText = await createKey(server, token, 'files-only', Permission.FILE_SHARE);
  });
  afterAll(async () => {
    await server?.close();
  });

  const view = (slug: string, options: { token?: string; apiKey?: string } = {}) =>
    server.call<PasteView | PasteLocked>('GET', `/api/paste/${encodeURIComponent(slug)}`, options);
  const unlock = (slug: string, password: unknown) =>
    server.call<PasteView>('POST', `/api/paste/${encodeURIComponent(slug)}`, { body: { password } });

  describe('create', () => {
    it('needs a login or a key with TEXT permission', async () => {
      const anon = await server.call('POST', '/api/paste', { body: { content: 'hi' } });
      expect(anon.status).toBe(401);
      expectEnvelope(anon.body, 401);
      const noText = await server.call('POST', '/api/paste', { apiKey: keyNoText, body: { content: 'hi' } });
      expect(noText.status).toBe(403);
      const bogus = await server.call('POST', '/api/paste', { apiKey: 'cn_not-a-real-key', body: { content: 'hi' } });
      expect(bogus.status).toBe(401);
    });

    it('creates with a generated unguessable slug and defaults, and a key holder can create', async () => {
      const created = await createPaste(server, { token }, { content: '# Hello\n\n| a | b |\n|---|---|\n| 1 | 2 |' });
      expect(created.slug).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(created).toMatchObject({
        url: `/paste/${created.slug}`,
        raw_url: `/api/raw/${created.slug}`,
        type: 'markdown',
        remark: '',
        has_password: false,
        expires_at: null,
        max_views: 0,
      });
      const other = await createPaste(server, { apiKey: keyA }, { content: 'plain', type: 'text' });
      expect(other.slug).not.toBe(created.slug);
      expect(other.type).toBe('text');
    });

    it('rejects bad input with 400 and the reason', async () => {
      const bad: [unknown, string][] = [
        [{ content: '' }, PasteMessages.contentEmpty],
        [{ content: '   \n\t' }, PasteMessages.contentEmpty],
        [{}, PasteMessages.contentEmpty],
        [{ content: 'x', slug: 'has space' }, 'letters, digits'],
        [{ content: 'x', slug: 'has/slash' }, 'letters, digits'],
        [{ content: 'x', slug: 'a'.repeat(51) }, 'at most 50'],
        [{ content: 'x', slug: 'admin' }, 'reserved'],
        [{ content: 'x', slug: 'API' }, 'reserved'],
        [{ content: 'x', slug: 'mount-explorer' }, 'reserved'],
        [{ content: 'x', max_views: -1 }, 'max views cannot be negative'],
        [{ content: 'x', max_views: 1.5 }, 'whole number'],
        [{ content: 'x', type: 'html' }, 'markdown'],
        [{ content: 'x', expires_in: -2 }, 'negative'],
        [{ content: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'in the future'],
        [{ content: 'x', expires_at: 'tomorrow' }, 'ISO'],
        [{ content: 'x', expires_in: 1, expires_at: null }, 'not both'],
        [{ content: 'x', surprise: true }, 'unknown field'],
        [{ content: 42 }, PasteMessages.contentEmpty],
      ];
      for (const [body, message] of bad) {
        const res = await server.call('POST', '/api/paste', { token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expectEnvelope(res.body, 400);
        expect(res.body.message, JSON.stringify(body)).toContain(message);
      }
      const malformed = await server.call('POST', '/api/paste', {
        token,
        rawBody: '{"content":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      const wrongType = await server.call('POST', '/api/paste', { token, rawBody: 'content=x' });
      expect(wrongType.status).toBe(415);
    });

    it('accepts exactly 10 MB and refuses 10 MB + 1 byte with 413', async () => {
      const exact = await server.call<{ slug: string }>('POST', '/api/paste', {
        token,
        body: { content: 'a'.repeat(PASTE_MAX_BYTES), type: 'text' },
      });
      expect(exact.status).toBe(201);
      const over = await server.call('POST', '/api/paste', {
        token,
        body: { content: 'a'.repeat(PASTE_MAX_BYTES + 1), type: 'text' },
      });
      expect(over.status).toBe(413);
      expectEnvelope(over.body, 413);
      expect(over.body.message).toBe(PasteMessages.contentTooLarge);
      // Multi-byte characters count in UTF-8 bytes: 3.5 M "中" is 10.5 MB.
      const wide = await server.call('POST', '/api/paste', { token, body: { content: '中'.repeat(3_500_000) } });
      expect(wide.status).toBe(413);
      // A body far beyond any allowed paste is refused without being read to the end.
      const huge = await server.call('POST', '/api/paste', {
        token,
        rawBody: `{"content":"${'b'.repeat(PASTE_MAX_BYTES * 2 + 128 * 1024)}"}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(huge.status).toBe(413);
      const viewExact = await view(exact.body.data!.slug);
      expect((viewExact.body.data as PasteView).content.length).toBe(PASTE_MAX_BYTES);
    });

    it('20 concurrent creates with one custom slug: one 201, nineteen 409', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server
            .call('POST', '/api/paste', {
              token,
              body: { content: `race ${i}`, slug: 'race-slug' },
            })
            .then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    });

    it('custom slug is kept, and a taken one answers 409 with the spec text', async () => {
      const first = await createPaste(server, { token }, { content: 'one', slug: 'my-notes_1' });
      expect(first.slug).toBe('my-notes_1');
      const again = await server.call('POST', '/api/paste', {
        apiKey: keyA,
        body: { content: 'two', slug: 'my-notes_1' },
      });
      expect(again.status).toBe(409);
      expectEnvelope(again.body, 409);
      expect(again.body.message).toBe(PasteMessages.slugTaken);
      // Empty slug means "generate one".
      const generated = await createPaste(server, { token }, { content: 'three', slug: '' });
      expect(generated.slug).toMatch(/^[A-Za-z0-9]{10}$/);
    });
  });

  describe('view', () => {
    it('shows content, counts every view and records paste_views', async () => {
      const created = await createPaste(server, { token }, { content: 'count me', remark: 'r1', max_views: 3 });
      const before = await pasteViewsToday(server);
      const first = await view(created.slug);
      expect(first.status).toBe(200);
      expectEnvelope(first.body, 200);
      expect(first.body.data).toMatchObject({
        slug: created.slug,
        type: 'markdown',
        content: 'count me',
        remark: 'r1',
        max_views: 3,
        views: 1,
        remaining_views: 2,
        has_password: false,
        requires_password: false,
        is_owner: false,
      });
      expect(first.body.data).not.toHaveProperty('id');
      expect(first.body.data).not.toHaveProperty('password_hash');
      // The owner (here the admin) looks without using up a view (issue 35 point 14).
      const owner = await view(created.slug, { token });
      expect(owner.body.data).toMatchObject({ views: 1, remaining_views: 2, is_owner: true, id: created.id });
      expect((await view(created.slug)).body.data).toMatchObject({ views: 2, remaining_views: 1 });
      const last = await view(created.slug);
      expect(last.body.data).toMatchObject({ views: 3, remaining_views: 0 });
      const gone = await view(created.slug);
      expect(gone.status).toBe(410);
      expectEnvelope(gone.body, 410);
      expect(gone.body.message).toBe(PasteMessages.gone);
      expect((await fetchRaw(server, created.slug)).status).toBe(410);
      await expect.poll(() => pasteViewsToday(server)).toBe(before + 3);
    });

    it('HEAD answers like a view (200/404/410) without counting one', async () => {
      const created = await createPaste(server, { token }, { content: 'head me', max_views: 1 });
      for (const path of [`/api/paste/${created.slug}`, `/api/raw/${created.slug}`]) {
        const head = await fetch(server.url + path, { method: 'HEAD' });
        expect(head.status, path).toBe(200);
        expect(await head.text()).toBe('');
      }
      const raw = await fetch(`${server.url}/api/raw/${created.slug}`, { method: 'HEAD' });
      expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect((await fetch(`${server.url}/api/paste/no-such-paste`, { method: 'HEAD' })).status).toBe(404);
      expect((await view(created.slug)).body.data).toMatchObject({ content: 'head me', views: 1 });
      expect((await fetch(`${server.url}/api/raw/${created.slug}`, { method: 'HEAD' })).status).toBe(410);
    });

    it('unknown slug is 404, malformed slug is 404 too', async () => {
      expect((await view('no-such-paste')).status).toBe(404);
      expect((await view('x'.repeat(300))).status).toBe(404);
      expect((await unlock('no-such-paste', 'pw')).status).toBe(404);
      expect((await fetchRaw(server, 'no-such-paste')).status).toBe(404);
    });

    it('password: GET says a password is needed without content or counting; POST checks it', async () => {
      const created = await createPaste(
        server,
        { apiKey: keyA },
        { content: 'secret text', password: 's3cret', max_views: 2 },
      );
      expect(created.has_password).toBe(true);
      const locked = await view(created.slug);
      expect(locked.status).toBe(200);
      expect(locked.body.data).toEqual({ slug: created.slug, requires_password: true });
      const wrong = await unlock(created.slug, 'nope');
      expect(wrong.status).toBe(401);
      expectEnvelope(wrong.body, 401);
      expect(wrong.body.message).toBe(PasteMessages.wrongPassword);
      const empty = await unlock(created.slug, '');
      expect(empty.status).toBe(401);
      const badBody = await unlock(created.slug, 12);
      expect(badBody.status).toBe(400);
      const right = await unlock(created.slug, 's3cret');
      expect(right.status).toBe(200);
      expect(right.body.data).toMatchObject({
        content: 'secret text',
        views: 1,
        remaining_views: 1,
        has_password: true,
      });
      // The creating key is the owner: no password asked, and its look is not counted.
      const owner = await view(created.slug, { apiKey: keyA });
      expect(owner.body.data).toMatchObject({ content: 'secret text', is_owner: true, views: 1 });
      // Another key is not the owner: asked for the password and counted.
      expect((await view(created.slug, { apiKey: keyB })).body.data).toEqual({
        slug: created.slug,
        requires_password: true,
      });
      expect((await unlock(created.slug, 's3cret')).body.data).toMatchObject({ views: 2, remaining_views: 0 });
      const gone = await view(created.slug, { apiKey: keyB });
      expect(gone.status).toBe(410);
      // Password never stored in clear.
      const row = await server.built.database.db
        .selectFrom('pastes')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(row)).not.toContain('s3cret');
      expect(row.created_by).toMatch(/^apikey:/);
    });

    it('limits password guesses: 10 wrong per 15 minutes, then 429 with Retry-After', async () => {
      const created = await createPaste(server, { token }, { content: 'guarded', password: 'right-one' });
      for (let i = 0; i < 10; i++) expect((await unlock(created.slug, `guess-${i}`)).status).toBe(401);
      const limited = await unlock(created.slug, 'right-one');
      expect(limited.status).toBe(429);
      expectEnvelope(limited.body, 429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await fetchRaw(server, created.slug, 'right-one')).status).toBe(429);
      // Another paste is not affected.
      const other = await createPaste(server, { token }, { content: 'other', password: 'pw2' });
      expect((await unlock(other.slug, 'pw2')).status).toBe(200);
      server.clock.advance(15 * 60_000 + 1000);
      try {
        expect((await unlock(created.slug, 'right-one')).status).toBe(200);
      } finally {
        server.clock.advance(-(15 * 60_000 + 1000));
      }
    });

    it('a stale admin token on a public view counts as anonymous', async () => {
      const created = await createPaste(server, { token }, { content: 'public' });
      const res = await view(created.slug, { token: 'expired-token' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ content: 'public', is_owner: false });
    });

    it('expired pastes answer 410 on view, unlock and raw, then the sweep deletes them (404)', async () => {
      const created = await createPaste(server, { token }, { content: 'short-lived', expires_in: 1 });
      expect(new Date(created.expires_at!).getTime() - server.clock.now().getTime()).toBeGreaterThan(HOUR - 60_000);
      const dated = await createPaste(
        server,
        { token },
        {
          content: 'dated',
          password: 'pw',
          expires_at: new Date(server.clock.now().getTime() + 2 * HOUR).toISOString(),
        },
      );
      const forever = await createPaste(server, { token }, { content: 'forever', expires_in: 0 });
      expect(forever.expires_at).toBeNull();
      expect((await view(created.slug)).status).toBe(200);
      server.clock.advance(2 * HOUR + 1000);
      try {
        expect((await view(created.slug)).status).toBe(410);
        expect((await view(dated.slug)).status).toBe(410);
        expect((await unlock(dated.slug, 'pw')).status).toBe(410);
        expect((await fetchRaw(server, created.slug)).status).toBe(410);
        expect((await view(forever.slug)).status).toBe(200);
        const swept = await server.built.services.pastes.sweepExpired();
        expect(swept).toBeGreaterThanOrEqual(2);
        expect((await view(created.slug)).status).toBe(404);
        expect((await view(dated.slug)).status).toBe(404);
        expect((await view(forever.slug)).status).toBe(200);
      } finally {
        server.clock.advance(-(2 * HOUR + 1000));
      }
    });

    it('200 concurrent views of a max-views-1 paste: exactly one gets the content', async () => {
      const created = await createPaste(server, { token }, { content: 'only once', max_views: 1 });
      const results = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${server.url}/api/paste/${created.slug}`).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { data?: PasteView },
          })),
        ),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(winners[0]?.body.data?.content).toBe('only once');
      expect(results.filter((r) => r.status === 410)).toHaveLength(199);
      const row = await server.built.database.db
        .selectFrom('pastes')
        .select('views')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.views).toBe(1);
    });

    it('unlimited pastes: 100 concurrent views all counted, shown at once and stored after the flush', async () => {
      const created = await createPaste(server, { token }, { content: 'many views', max_views: 0 });
      const storedViews = async () =>
        (
          await server.built.database.db
            .selectFrom('pastes')
            .select('views')
            .where('id', '=', created.id)
            .executeTakeFirstOrThrow()
        ).views;
      const statuses = await Promise.all(Array.from({ length: 100 }, () => view(created.slug).then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      // Counted in memory: every answer that shows a count includes them before they are written.
      expect((await view(created.slug)).body.data).toMatchObject({ views: 101, remaining_views: null });
      const detail = await server.call<{ views: number }>('GET', `/api/pastes/${created.id}`, { token });
      expect(detail.body.data?.views).toBe(101);
      await server.built.services.pastes.flushViews();
      expect(await storedViews()).toBe(101);
      // A new limit sees every view so far: 101 ≥ 101 means used up.
      const limited = await server.call('PUT', `/api/pastes/${created.id}`, { token, body: { max_views: 101 } });
      expect(limited.status).toBe(200);
      expect((await view(created.slug)).status).toBe(410);
      // A reset is not undone by counts still in memory.
      await server.call('PUT', `/api/pastes/${created.id}`, { token, body: { max_views: 0, reset_views: true } });
      await view(created.slug);
      await server.built.services.pastes.flushViews();
      expect(await storedViews()).toBe(1);
    });

    it('a view while a batch of counts is being written still shows every view', async () => {
      const created = await createPaste(server, { token }, { content: 'counted', max_views: 0 });
      for (let round = 1; round <= 5; round++) {
        await Promise.all(Array.from({ length: 20 }, () => view(created.slug)));
        // Not awaited: the batch has left memory and is on its way to the database.
        const writing = server.built.services.pastes.flushViews();
        expect((await view(created.slug)).body.data).toMatchObject({ views: round * 21 });
        await writing;
      }
    });

    it('concurrent unlocks of a password-protected max-views-1 paste: exactly one gets the content', async () => {
      const created = await createPaste(server, { token }, { content: 'locked once', password: 'pw', max_views: 1 });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => unlock(created.slug, 'pw').then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 410)).toHaveLength(19);
    }, 30_000);

    it('concurrent views of a max-views-5 paste mixed with raw: exactly five succeed', async () => {
      const created = await createPaste(server, { token }, { content: 'five', max_views: 5 });
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          i % 2 ? fetchRaw(server, created.slug).then((r) => r.status) : view(created.slug).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 410)).toHaveLength(95);
    });
  });

  describe('raw', () => {
    it('serves text/plain with nosniff, counts the view, and checks the password', async () => {
      const html = '<script>alert(1)</script>\n中文 ✓';
      const open = await createPaste(server, { token }, { content: html, type: 'text', max_views: 2 });
      const raw = await fetchRaw(server, open.slug);
      expect(raw.status).toBe(200);
      expect(raw.text).toBe(html);
      expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
      expect(raw.headers.get('cache-control')).toBe('no-store');
      const after = await view(open.slug);
      expect(after.body.data).toMatchObject({ views: 2, remaining_views: 0 });

      const locked = await createPaste(server, { token }, { content: 'pw text', password: 'letmein' });
      const missing = await fetchRaw(server, locked.slug);
      expect(missing.status).toBe(401);
      expect(JSON.parse(missing.text)).toMatchObject({ code: 401, success: false });
      expect((await fetchRaw(server, locked.slug, 'wrong')).status).toBe(401);
      const ok = await fetchRaw(server, locked.slug, 'letmein');
      expect(ok.status).toBe(200);
      expect(ok.text).toBe('pw text');
    });
  });

  describe('management', () => {
    it('lists with paging, search and sort; key holders see only their own', async () => {
      const mine: PasteCreated[] = [];
      for (let i = 0; i < 12; i++) {
        mine.push(
          await createPaste(server, { apiKey: keyB }, { content: `list item ${i} needle_${i}`, remark: `rem ${i}` }),
        );
      }
      const page1 = await server.call<PasteListResponse>('GET', '/api/pastes', { apiKey: keyB });
      expect(page1.status).toBe(200);
      expect(page1.body.data).toMatchObject({ total: 12, limit: 10, offset: 0, page: 1 });
      expect(page1.body.data?.items).toHaveLength(10);
      const item = page1.body.data!.items[0]!;
      expect(item).toMatchObject({ slug: mine[11]!.slug, remark: 'rem 11', has_password: false, expired: false });
      expect(item.preview).toBe('list item 11 needle_11');
      expect(item.size).toBe(Buffer.byteLength('list item 11 needle_11'));
      expect(item).not.toHaveProperty('content');
      expect(item).not.toHaveProperty('password_hash');
      const page2 = await server.call<PasteListResponse>('GET', '/api/pastes?page=2', { apiKey: keyB });
      expect(page2.body.data?.items).toHaveLength(2);
      expect(page2.body.data?.offset).toBe(10);
      const asc = await server.call<PasteListResponse>('GET', '/api/pastes?sort=created_at&order=asc&limit=3', {
        apiKey: keyB,
      });
      expect(asc.body.data?.items.map((i) => i.slug)).toEqual(mine.slice(0, 3).map((p) => p.slug));
      // Search: content, remark, slug; LIKE wildcards are literal.
      const search = await server.call<PasteListResponse>('GET', '/api/pastes?search=NEEDLE_1', { apiKey: keyB });
      expect(search.body.data?.items.map((i) => i.slug).sort()).toEqual(
        [mine[1]!, mine[10]!, mine[11]!].map((p) => p.slug).sort(),
      );
      const wildcard = await server.call<PasteListResponse>('GET', '/api/pastes?search=%25', { apiKey: keyB });
      expect(wildcard.body.data?.total).toBe(0);
      // Key A sees none of B's; the admin sees all of them.
      const fromA = await server.call<PasteListResponse>('GET', '/api/pastes?limit=100', { apiKey: keyA });
      expect(fromA.body.data?.items.some((i) => mine.some((m) => m.id === i.id))).toBe(false);
      expect(fromA.body.data?.items.every((i) => i.created_by === fromA.body.data?.items[0]?.created_by)).toBe(true);
      const admin = await server.call<PasteListResponse>('GET', '/api/pastes?search=needle_', { token });
      expect(admin.body.data?.total).toBe(12);

      for (const query of ['limit=0', 'limit=101', 'page=0', 'sort=content', 'order=up', 'offset=-1']) {
        const res = await server.call('GET', `/api/pastes?${query}`, { token });
        expect(res.status, query).toBe(400);
      }
      expect((await server.call('GET', '/api/pastes')).status).toBe(401);
      expect((await server.call('GET', '/api/pastes', { apiKey: keyNoText })).status).toBe(403);
    });

    it('get and update: content, slug, password, expiry, max views; others cannot touch it', async () => {
      const created = await createPaste(server, { apiKey: keyA }, { content: 'v1', password: 'old', max_views: 1 });
      const path = `/api/pastes/${created.id}`;
      const got = await server.call<PasteDetail>('GET', path, { apiKey: keyA });
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({ id: created.id, content: 'v1', has_password: true, views: 0 });
      // Management reads do not count views.
      expect((await server.call<PasteDetail>('GET', path, { apiKey: keyA })).body.data?.views).toBe(0);

      // Another key: not found for read, update and delete; the admin can.
      expect((await server.call('GET', path, { apiKey: keyB })).status).toBe(404);
      expect((await server.call('PUT', path, { apiKey: keyB, body: { content: 'hijack' } })).status).toBe(404);
      const del = await server.call<PastesDeleted>('DELETE', '/api/pastes/batch-delete', {
        apiKey: keyB,
        body: { ids: [created.id] },
      });
      expect(del.body.data).toEqual({ deleted: 0 });
      expect((await server.call('GET', path, { token })).status).toBe(200);

      const updated = await server.call<PasteDetail>('PUT', path, {
        apiKey: keyA,
        body: {
          content: 'v2',
          type: 'text',
          remark: 'edited',
          slug: 'renamed-paste',
          clear_password: true,
          max_views: 0,
          expires_in: 24,
        },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({
        content: 'v2',
        type: 'text',
        remark: 'edited',
        slug: 'renamed-paste',
        has_password: false,
        max_views: 0,
      });
      expect(updated.body.data?.expires_at).toBeTruthy();
      expect((await view(created.slug)).status).toBe(404);
      expect((await view('renamed-paste')).body.data).toMatchObject({ content: 'v2' });

      const withPw = await server.call<PasteDetail>('PUT', path, {
        token,
        body: { password: 'new-pw', expires_at: null, max_views: 1, reset_views: true },
      });
      expect(withPw.body.data).toMatchObject({ has_password: true, expires_at: null, max_views: 1, views: 0 });
      expect((await unlock('renamed-paste', 'old')).status).toBe(401);
      expect((await unlock('renamed-paste', 'new-pw')).status).toBe(200);
      expect((await unlock('renamed-paste', 'new-pw')).status).toBe(410);
      const listed = await server.call<PasteListResponse>('GET', '/api/pastes?search=renamed-paste', { token });
      expect(listed.body.data?.items[0]).toMatchObject({ expired: true, remaining_views: 0 });

      // Bad updates.
      await createPaste(server, { token }, { content: 'x', slug: 'taken-slug' });
      const taken = await server.call('PUT', path, { apiKey: keyA, body: { slug: 'taken-slug' } });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe(PasteMessages.slugTaken);
      const badBodies: unknown[] = [
        { content: '' },
        { slug: 'upload' },
        { max_views: -3 },
        { password: 'a', clear_password: true },
        { expires_at: '1999-01-01T00:00:00Z' },
        { views: 5 },
      ];
      for (const body of badBodies) {
        expect((await server.call('PUT', path, { apiKey: keyA, body })).status, JSON.stringify(body)).toBe(400);
      }
      const tooBig = await server.call('PUT', path, {
        apiKey: keyA,
        body: { content: 'z'.repeat(PASTE_MAX_BYTES + 1) },
      });
      expect(tooBig.status).toBe(413);
      expect((await server.call<PasteDetail>('GET', path, { token })).body.data?.content).toBe('v2');
      expect((await server.call('GET', '/api/pastes/does-not-exist', { token })).status).toBe(404);
      expect((await server.call('GET', '/api/pastes/..%2F..', { token })).status).toBe(404);
    });

    it('batch delete (DELETE or POST) and clear expired, scoped to the caller', async () => {
      const a1 = await createPaste(server, { apiKey: keyA }, { content: 'a1' });
      const a2 = await createPaste(server, { apiKey: keyA }, { content: 'a2' });
      const b1 = await createPaste(server, { apiKey: keyB }, { content: 'b1' });
      const res = await server.call<PastesDeleted>('DELETE', '/api/pastes/batch-delete', {
        apiKey: keyA,
        body: { ids: [a1.id, b1.id, 'unknown-id-123'] },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ deleted: 1 });
      expect((await view(a1.slug)).status).toBe(404);
      expect((await view(b1.slug)).status).toBe(200);
      const post = await server.call<PastesDeleted>('POST', '/api/pastes/batch-delete', {
        token,
        body: { ids: [a2.id, b1.id] },
      });
      expect(post.body.data).toEqual({ deleted: 2 });
      for (const body of [{ ids: [] }, { ids: 'x' }, {}, { ids: [1] }]) {
        expect(
          (await server.call('DELETE', '/api/pastes/batch-delete', { token, body })).status,
          JSON.stringify(body),
        ).toBe(400);
      }

      const aOld = await createPaste(server, { apiKey: keyA }, { content: 'a-old', expires_in: 1 });
      const bOld = await createPaste(server, { apiKey: keyB }, { content: 'b-old', expires_in: 1 });
      const aUsed = await createPaste(server, { apiKey: keyA }, { content: 'a-used', max_views: 1 });
      const aLive = await createPaste(server, { apiKey: keyA }, { content: 'a-live', expires_in: 48 });
      expect((await view(aUsed.slug)).status).toBe(200);
      server.clock.advance(HOUR + 1000);
      try {
        expect((await server.call('POST', '/api/pastes/clear-expired', { apiKey: keyA, body: {} })).status).toBe(400);
        expect(
          (await server.call('POST', '/api/pastes/clear-expired', { apiKey: keyA, body: { clearExpired: false } }))
            .status,
        ).toBe(400);
        const cleared = await server.call<PastesDeleted>('POST', '/api/pastes/clear-expired', {
          apiKey: keyA,
          body: { clearExpired: true },
        });
        expect(cleared.status).toBe(200);
        expect(cleared.body.data?.deleted).toBeGreaterThanOrEqual(2);
        expect((await view(aOld.slug)).status).toBe(404);
        expect((await view(aUsed.slug)).status).toBe(404);
        expect((await view(bOld.slug)).status).toBe(410);
        expect((await view(aLive.slug)).status).toBe(200);
        const byAdmin = await server.call<PastesDeleted>('POST', '/api/pastes/clear-expired', {
          token,
          body: { clearExpired: true },
        });
        expect(byAdmin.body.data?.deleted).toBeGreaterThanOrEqual(1);
        expect((await view(bOld.slug)).status).toBe(404);
      } finally {
        server.clock.advance(-(HOUR + 1000));
      }
      expect((await server.call('DELETE', `/api/pastes/${aLive.id}`, { apiKey: keyB })).status).toBe(404);
      expect((await server.call('DELETE', `/api/pastes/${aLive.id}`, { apiKey: keyA })).status).toBe(200);
      expect((await view(aLive.slug)).status).toBe(404);
    });
  });
});
