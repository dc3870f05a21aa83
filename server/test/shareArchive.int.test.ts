import type { ArchiveListing, PublicFileDetails } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { rawGet, upload } from './support/fileShares.js';
import { zipOf } from './support/handZip.js';

// A shared archive's listing and single entries: with the share's token (counting nothing more) or its
// password (one view), zip-slip names flagged and looked up as given, bad input a 4xx.
describe.each(dbTargets)('shared archives on %s', (target) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const zip = zipOf([
    { name: 'docs/readme.txt', data: Buffer.from('hello from the zip'), deflate: true },
    { name: '../evil.sh', data: Buffer.from('echo pwned') },
  ]);
  const share = async (name: string, content: Uint8Array, fields: Record<string, string> = {}) => {
    const res = await upload(server, content, { token, filename: name, type: 'application/zip', fields });
    if (res.status !== 201) throw new Error(`upload failed ${res.status} ${res.body.message}`);
    return res.body.data!;
  };

  it('lists with the access token and counts no view or download', async () => {
    const file = await share('bundle.zip', zip, { max_views: '2' });
    const details = (await server.call<PublicFileDetails>('GET', `/api/public/files/${file.slug}`)).body.data!;
    const q = `token=${encodeURIComponent(details.access_token)}`;
    for (let i = 0; i < 3; i++) {
      const listing = await server.call<ArchiveListing>('GET', `/api/public/files/${file.slug}/archive?${q}`);
      expect(listing.status).toBe(200);
      expect(listing.body.data?.entries.map((e) => [e.name, e.unsafe])).toEqual([
        ['docs/readme.txt', false],
        ['../evil.sh', true],
      ]);
    }
    const entry = await rawGet(
      server,
      `/api/public/files/${file.slug}/archive/entry?${q}&entry=${encodeURIComponent('docs/readme.txt')}`,
    );
    expect(entry.status).toBe(200);
    expect(entry.text).toBe('hello from the zip');
    // The zip-slip name is looked up as written, never resolved to a path.
    const slip = await rawGet(
      server,
      `/api/public/files/${file.slug}/archive/entry?${q}&entry=${encodeURIComponent('../evil.sh')}&download=1`,
    );
    expect(slip.status).toBe(200);
    expect(slip.headers.get('content-disposition')).toMatch(/^attachment/);
    // One view was counted (the metadata); one is left.
    const again = await server.call<PublicFileDetails>('GET', `/api/public/files/${file.slug}`);
    expect(again.status).toBe(200);
    expect(again.body.data?.views).toBe(2);
  });

  it('applies the password and answers bad input with a 4xx', async () => {
    const locked = await share('locked.zip', zip, { password: 'pw' });
    expect((await server.call('GET', `/api/public/files/${locked.slug}/archive`)).status).toBe(401);
    expect((await server.call('GET', `/api/public/files/${locked.slug}/archive?password=nope`)).status).toBe(401);
    expect((await server.call('GET', `/api/public/files/${locked.slug}/archive?password=pw`)).status).toBe(200);
    expect((await server.call('GET', `/api/public/files/${locked.slug}/archive?token=forged`)).status).toBe(401);

    const open = await share('open.zip', zip);
    expect((await server.call('GET', `/api/public/files/${open.slug}/archive/entry`)).status).toBe(400);
    expect((await server.call('GET', `/api/public/files/${open.slug}/archive/entry?entry=missing`)).status).toBe(404);
    expect((await server.call('GET', `/api/public/files/${open.slug}/archive?extra=1`)).status).toBe(400);
    const text = await upload(server, 'plain', { token, filename: 'a.txt', type: 'text/plain' });
    expect((await server.call('GET', `/api/public/files/${text.body.data!.slug}/archive`)).status).toBe(400);
    const broken = await share('broken.zip', Buffer.from('not a zip at all'));
    const res = await server.call('GET', `/api/public/files/${broken.slug}/archive`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await server.call('GET', '/api/public/files/nope-nope/archive')).status).toBe(404);
  });
});
