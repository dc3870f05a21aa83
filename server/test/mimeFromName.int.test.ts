// A share's type comes from the file's name when the client's type is missing or generic (issue 17.3):
// `curl -T photo.png` and a form part sent as application/octet-stream both become image/png shares
// that preview inline; an HTML file never becomes inline content whatever its name says.
import type { PublicFileDetails } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { rawGet, upload } from './support/fileShares.js';
import { fileShareKey } from './support/uploads.js';

// The 8-byte PNG signature and an empty IHDR are enough: nothing here decodes the image.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

describe.each(dbTargets)('share types from file names (%s)', (target) => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    key = (await fileShareKey(server, await server.login(), 'mime')).key;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  async function details(slug: string): Promise<PublicFileDetails> {
    const res = await server.call<PublicFileDetails>('GET', `/api/public/files/${slug}`);
    expect(res.status).toBe(200);
    return res.body.data!;
  }

  it('curl -T photo.png (no Content-Type) gives an image share that previews inline', async () => {
    const res = await fetch(`${server.url}/api/upload-direct/photo.png`, {
      method: 'PUT',
      headers: { authorization: `ApiKey ${key}`, 'user-agent': 'curl/8.5.0', accept: 'application/json' },
      body: PNG,
    });
    expect(res.status).toBe(201);
    const slug = ((await res.json()) as { data: { slug: string } }).data.slug;
    const info = await details(slug);
    expect(info).toMatchObject({ mimetype: 'image/png', type: 'image', inline_safe: true });
    const preview = await rawGet(server, info.preview_url);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/png');
  });

  it('a form part sent as application/octet-stream gets the type its extension names', async () => {
    const res = await upload(server, PNG, { apiKey: key, filename: 'Holiday.PNG', type: 'application/octet-stream' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mimetype: 'image/png', type: 'image' });
  });

  it('a specific type the client sent wins over the extension; Markdown names stay text/markdown', async () => {
    const sent = await upload(server, 'a,b\n1,2\n', { apiKey: key, filename: 'data.bin', type: 'text/csv' });
    expect(sent.body.data?.mimetype).toBe('text/csv');
    const md = await upload(server, '# hi', { apiKey: key, filename: 'notes.markdown', type: 'text/plain' });
    expect(md.body.data?.mimetype).toBe('text/markdown');
  });

  it('an HTML name gives text/html, which is only ever served as a sandboxed attachment', async () => {
    const res = await upload(server, '<script>alert(1)</script>', { apiKey: key, filename: 'page.html' });
    expect(res.body.data?.mimetype).toBe('text/html');
    const info = await details(res.body.data!.slug);
    expect(info.inline_safe).toBe(false);
    const view = await rawGet(server, `/api/file-view/${info.slug}`);
    expect(view.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(view.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('a name with no known extension stays application/octet-stream', async () => {
    const res = await upload(server, 'x', { apiKey: key, filename: 'README' });
    expect(res.body.data).toMatchObject({ mimetype: 'application/octet-stream', type: 'other' });
  });
});
