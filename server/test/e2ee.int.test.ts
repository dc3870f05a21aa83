// End-to-end encrypted shares (#25, docs/encryption.md): the server stores ciphertext and public
// parameters only. A marker string is put in every plaintext (content, remark, file name, bytes) and
// searched for in what the client sends, in every row of the database and in the stored objects; the
// link key is searched for too. Expiry, max views (atomic), deletion still apply; no server preview.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  E2EE_FILE_PLACEHOLDER_NAME,
  type FileView,
  type MultipartInitResult,
  type PasteCreated,
  type PasteListResponse,
  type PasteView,
  type PublicFileDetails,
  type StorageConfigView,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileDecryptor, decryptPaste, encryptFile, encryptPaste } from '../../web/src/lib/e2ee';
import { filesUnder, localRoot, rawGet, upload } from './support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { MiB, sendParts, testBytes } from './support/uploads.js';

const MARKER = 'MARKER-e2ee-q7Zx1';
const ITER = 100_000;

async function decryptBytes(bytes: Uint8Array, params: FileView['encryption'], key: string) {
  const { stream, header } = await createFileDecryptor(params!, key);
  const out = new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream));
  return { data: new Uint8Array(await out.arrayBuffer()), header: await header };
}

describe.each(dbTargets)('end-to-end encrypted shares on %s', (target) => {
  let server: TestServer;
  let token: string;
  let localConfig: string;
  /** Every request body this test sends, to check none carries the marker or a key. */
  const sent: string[] = [];
  const keys: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const configs = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs', { token });
    localConfig = configs.body.data!.items.find((c) => c.storage_type === 'local')!.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = async <T>(url: string, body: Record<string, unknown>) => {
    sent.push(JSON.stringify(body));
    return server.call<T>('POST', url, { token, body });
  };

  async function databaseText(): Promise<string> {
    const db = server.built.database.db;
    const tables = ['pastes', 'files', 'upload_sessions', 'upload_parts', 'tasks', 'fs_index'] as const;
    const rows = await Promise.all(tables.map((t) => db.selectFrom(t).selectAll().execute()));
    return JSON.stringify(rows);
  }

  function storageText(): string {
    const root = localRoot(server);
    return filesUnder(root)
      .map((rel) => readFileSync(path.join(root, rel)).toString('latin1'))
      .join('\n');
  }

  it('a paste: only ciphertext is sent and stored; it decrypts with the key and burns after one view', async () => {
    const plain = { content: `# Secret\n\n${MARKER} body`, remark: `${MARKER} remark`, type: 'markdown' as const };
    const enc = await encryptPaste(plain);
    keys.push(enc.key);
    const res = await post<PasteCreated>('/api/paste', {
      content: enc.content,
      encryption: enc.encryption,
      max_views: 1,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ encrypted: true, remark: '', max_views: 1 });
    const slug = res.body.data!.slug;

    const list = await server.call<PasteListResponse>('GET', '/api/pastes', { token });
    const item = list.body.data!.items.find((p) => p.slug === slug)!;
    expect(item).toMatchObject({ encrypted: true, preview: '', remark: '' });
    expect(item.size).toBe(enc.content.length);

    const first = await server.call<PasteView>('GET', `/api/paste/${slug}`);
    expect(first.status).toBe(200);
    expect(first.body.data!.encryption).toEqual(enc.encryption);
    expect(first.body.data!.content).toBe(enc.content);
    expect(await decryptPaste(first.body.data!.content, first.body.data!.encryption!, `#${enc.key}`)).toEqual(plain);
    // Burn after reading: the one view is used up, atomically, like any paste.
    expect((await server.call('GET', `/api/paste/${slug}`)).status).toBe(410);
  });

  it('a password-protected paste keeps the password on the client; max views stay atomic', async () => {
    const enc = await encryptPaste(
      { content: MARKER, remark: '', type: 'text' },
      { password: 'pw-1', iterations: ITER },
    );
    keys.push(enc.key);
    const res = await post<PasteCreated>('/api/paste', {
      content: enc.content,
      encryption: enc.encryption,
      max_views: 3,
    });
    expect(res.status).toBe(201);
    expect(res.body.data!.has_password).toBe(false);
    const views = await Promise.all(
      Array.from({ length: 6 }, () => server.call<PasteView>('GET', `/api/paste/${res.body.data!.slug}`)),
    );
    expect(views.filter((v) => v.status === 200)).toHaveLength(3);
    expect(views.filter((v) => v.status === 410)).toHaveLength(3);
    const view = views.find((v) => v.status === 200)!.body.data!;
    await expect(decryptPaste(view.content, view.encryption!, enc.key, 'pw-1')).resolves.toMatchObject({
      content: MARKER,
    });
  });

  it('refuses what would leak or break the format with a 400, and cannot edit the ciphertext', async () => {
    const enc = await encryptPaste({ content: 'x', remark: '', type: 'markdown' });
    const bad = async (body: Record<string, unknown>) =>
      (await server.call('POST', '/api/paste', { token, body })).status;
    expect(await bad({ content: enc.content, encryption: enc.encryption, password: 'server-side' })).toBe(400);
    expect(await bad({ content: enc.content, encryption: enc.encryption, remark: 'plain remark' })).toBe(400);
    expect(await bad({ content: 'plain text here', encryption: enc.encryption })).toBe(400);
    expect(await bad({ content: enc.content, encryption: { ...enc.encryption, kind: 'file' } })).toBe(400);
    expect(await bad({ content: enc.content, encryption: { ...enc.encryption, iv: undefined } })).toBe(400);
    expect(
      await bad({ content: enc.content, encryption: { ...enc.encryption, kdf: 'PBKDF2-SHA-256', iterations: 10 } }),
    ).toBe(400);
    expect(await bad({ content: enc.content, encryption: { ...enc.encryption, key: enc.key } })).toBe(400);

    const made = await post<PasteCreated>('/api/paste', { content: enc.content, encryption: enc.encryption });
    const id = made.body.data!.id;
    const edit = await server.call('PUT', `/api/pastes/${id}`, { token, body: { content: 'new plain text' } });
    expect(edit.status).toBe(400);
    const limits = await server.call('PUT', `/api/pastes/${id}`, { token, body: { max_views: 5, expires_in: 1 } });
    expect(limits.status).toBe(200);
    // Expiry still applies.
    server.clock.advance(2 * 3600_000);
    expect((await server.call('GET', `/api/paste/${made.body.data!.slug}`)).status).toBe(410);
    server.clock.advance(-2 * 3600_000);
    // Deletion still applies.
    expect((await server.call('DELETE', `/api/pastes/${id}`, { token })).status).toBe(200);
  });

  it('a file by form upload: placeholder name, ciphertext object, decrypted by the link key; no office preview', async () => {
    const data = new TextEncoder().encode(`${MARKER} `.repeat(20_000));
    const enc = await encryptFile(new Blob([data]), { name: `${MARKER}.txt`, type: 'text/plain' });
    keys.push(enc.key);
    const bytes = await enc.read(0, enc.size);
    sent.push(Buffer.from(bytes).toString('latin1'));
    const res = await upload(server, bytes, {
      token,
      filename: E2EE_FILE_PLACEHOLDER_NAME,
      fields: { encryption: JSON.stringify(enc.encryption), max_views: '2' },
    });
    expect(res.status).toBe(201);
    const file = res.body.data!;
    expect(file).toMatchObject({
      filename: E2EE_FILE_PLACEHOLDER_NAME,
      mimetype: 'application/octet-stream',
      type: 'other',
    });
    expect(file.encryption).toEqual(enc.encryption);

    const info = await server.call<PublicFileDetails>('GET', `/api/public/files/${file.slug}`);
    expect(info.body.data!.encryption).toEqual(enc.encryption);
    const office = await server.call('GET', `/api/office-preview/${file.slug}?token=${info.body.data!.access_token}`);
    expect(office.status).toBe(400);
    const download = await rawGet(server, info.body.data!.download_url);
    expect(download.status).toBe(200);
    const out = await decryptBytes(download.body, info.body.data!.encryption, enc.key);
    expect(out.header).toEqual({ name: `${MARKER}.txt`, type: 'text/plain', size: data.length });
    expect(Buffer.compare(Buffer.from(out.data), Buffer.from(data))).toBe(0);

    // A server-side password or remark next to the ciphertext is refused.
    for (const extra of [{ password: 'pw' }, { remark: 'plain' }] as Record<string, string>[]) {
      const refused = await upload(server, bytes, {
        token,
        filename: E2EE_FILE_PLACEHOLDER_NAME,
        fields: { encryption: JSON.stringify(enc.encryption), ...extra },
      });
      expect(refused.status).toBe(400);
    }
    const garbage = await upload(server, bytes, { token, fields: { encryption: '{not json' } });
    expect(garbage.status).toBe(400);
  });

  it('a file through the resumable multipart flow (local storage) keeps its parameters', async () => {
    const data = testBytes(11 * MiB);
    data.set(new TextEncoder().encode(MARKER), 1000);
    const enc = await encryptFile(new Blob([data as Uint8Array<ArrayBuffer>]), {
      name: `${MARKER}.bin`,
      type: '',
    });
    keys.push(enc.key);
    const bytes = await enc.read(0, enc.size);
    const init = await post<MultipartInitResult>('/api/upload/multipart/init', {
      filename: E2EE_FILE_PLACEHOLDER_NAME,
      size: bytes.length,
      s3_config_id: localConfig,
      mimetype: 'application/octet-stream',
      encryption: JSON.stringify(enc.encryption),
    });
    expect(init.status).toBe(200);
    const up = init.body.data!;
    await sendParts(
      server,
      token,
      up,
      bytes,
      Array.from({ length: up.part_count }, (_, i) => i + 1),
    );
    const done = await post<FileView>('/api/upload/multipart/complete', { file_id: up.file_id });
    expect(done.status).toBe(201);
    expect(done.body.data!.encryption).toEqual(enc.encryption);
    const download = await rawGet(server, done.body.data!.download_url, { authorization: `Bearer ${token}` });
    const out = await decryptBytes(download.body, done.body.data!.encryption, enc.key);
    expect(out.header.name).toBe(`${MARKER}.bin`);
    expect(Buffer.compare(Buffer.from(out.data), Buffer.from(data))).toBe(0);
  });

  it('nothing the server received or holds contains the marker or a link key', async () => {
    expect(keys.length).toBeGreaterThanOrEqual(4);
    const haystacks = { sent: sent.join('\n'), database: await databaseText(), storage: storageText() };
    for (const [where, text] of Object.entries(haystacks)) {
      expect(text.includes(MARKER), `${where} holds the marker`).toBe(false);
      for (const key of keys) expect(text.includes(key), `${where} holds a key`).toBe(false);
    }
    // Sanity: the marker check would see plaintext (the database holds what other tests store in clear).
    await post('/api/paste', { content: `plain ${MARKER}` });
    expect((await databaseText()).includes(MARKER)).toBe(true);
  });
});
