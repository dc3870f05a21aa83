// ShareX custom uploaders (issue 40, point 2): GET /api/integrations/sharex answers a .sxcu for the calling key, and
// an upload made exactly as ShareX makes it from that file gives a working link.
import { Permission } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { createApiKey } from './support/apiKeys.js';
import { withAdminServer } from './support/adminServer.js';
import { dbTargets, expectEnvelope, type TestServer } from './support/harness.js';

interface Sxcu {
  Version: string;
  Name: string;
  DestinationType: string;
  RequestMethod: string;
  RequestURL: string;
  Headers: Record<string, string>;
  Body: string;
  FileFormName?: string;
  Data?: string;
  URL: string;
  ErrorMessage: string;
}

/** ShareX's `{json:a.b}` syntax, resolved against an answer. */
function resolveSyntax(template: string, answer: unknown): string {
  return template.replace(/\{json:([\w.]+)\}/g, (_, path: string) =>
    String(path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], answer)),
  );
}

async function fetchSxcu(server: TestServer, apiKey: string, kind?: string) {
  const res = await fetch(`${server.url}/api/integrations/sharex${kind ? `?kind=${kind}` : ''}`, {
    headers: { authorization: `ApiKey ${apiKey}` },
  });
  return { res, text: await res.text() };
}

describe.each(dbTargets)('ShareX uploaders on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  it('a file uploaded as ShareX sends it from the .sxcu gives a working share link', async () => {
    const key = await createApiKey(server, token, { name: 'sharex', permissions: Permission.FILE_SHARE });
    const { res, text } = await fetchSxcu(server, key.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="clipnest-file.sxcu"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const sxcu = JSON.parse(text) as Sxcu;
    expect(sxcu).toMatchObject({
      DestinationType: 'ImageUploader, FileUploader, TextUploader',
      RequestMethod: 'POST',
      RequestURL: `${server.url}/api/upload`,
      Body: 'MultipartFormData',
      FileFormName: 'file',
      Headers: { Authorization: `ApiKey ${key.key}` },
    });

    // What ShareX sends: one multipart part named FileFormName, the configured headers.
    const bytes = new TextEncoder().encode('\u0089PNG pretend screenshot bytes');
    const form = new FormData();
    form.append(sxcu.FileFormName!, new Blob([bytes], { type: 'image/png' }), 'Screenshot 2026-11-28 040506.png');
    const upload = await fetch(sxcu.RequestURL, { method: sxcu.RequestMethod, headers: sxcu.Headers, body: form });
    expect(upload.status).toBe(201);
    const answer: unknown = await upload.json();
    const link = resolveSyntax(sxcu.URL, answer);
    expect(link).toMatch(new RegExp(`^${server.url}/file/[\\w-]+$`));

    // The link is the share page (the web app, not served by this test server); its bytes come from the API.
    const slug = link.split('/').pop()!;
    const download = await fetch(`${server.url}/api/file-download/${slug}`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it('text sent as ShareX sends it from the text .sxcu becomes a paste with exactly that text', async () => {
    const key = await createApiKey(server, token, { name: 'sharex-text', permissions: Permission.TEXT });
    const { res, text } = await fetchSxcu(server, key.key, 'text');
    expect(res.status).toBe(200);
    const sxcu = JSON.parse(text) as Sxcu;
    expect(sxcu).toMatchObject({
      DestinationType: 'TextUploader',
      Body: 'JSON',
      RequestURL: `${server.url}/api/paste`,
    });

    // ShareX puts {input} into the JSON body escaped for JSON.
    const clip = 'line one\n"quoted" \\ back\tslash — 中文 ✓';
    const body = sxcu.Data!.replace('{input}', JSON.stringify(clip).slice(1, -1));
    const created = await fetch(sxcu.RequestURL, {
      method: sxcu.RequestMethod,
      headers: { ...sxcu.Headers, 'content-type': 'application/json' },
      body,
    });
    expect(created.status).toBe(201);
    const link = resolveSyntax(sxcu.URL, await created.json());
    expect(link).toMatch(new RegExp(`^${server.url}/paste/[\\w-]+$`));
    const raw = await fetch(`${server.url}/api/raw/${link.split('/').pop()}`);
    expect(await raw.text()).toBe(clip);
  });

  it('answers a clear error for anonymous callers, the admin token, a key without the permission and an unknown kind', async () => {
    expect((await server.call('GET', '/api/integrations/sharex')).status).toBe(401);
    const admin = await server.call('GET', '/api/integrations/sharex', { token });
    expect(admin.status).toBe(401);
    expect(admin.body.message).toContain('ApiKey');

    const textOnly = await createApiKey(server, token, { name: 'text-only', permissions: Permission.TEXT });
    const refused = await server.call('GET', '/api/integrations/sharex', { apiKey: textOnly.key });
    expect(refused.status).toBe(403);
    expectEnvelope(refused.body, 403);
    expect(refused.body.message).toContain('file share');

    const bogus = await server.call('GET', '/api/integrations/sharex?kind=video', { apiKey: textOnly.key });
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toContain('kind');
  });
});
