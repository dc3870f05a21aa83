import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';
import { expectLitmusPasses } from './support/webdav.js';

/**
 * Every suite of litmus passes in full on a local mount and on an S3 (s3rver) mount, both created with the
 * default mount settings (`webdav_policy` 302_redirect: litmus does not follow redirects, so it gets the bytes).
 */
describe.each(dbTargets)('litmus on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    const s3Config = await createS3Config(server, token, s3);
    const local = await createMount(server, token, { path: '/local', storage_config_id: localId });
    const s3Mount = await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id });
    expect([local.webdav_policy, s3Mount.webdav_policy]).toEqual(['302_redirect', '302_redirect']);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it.each(['local', 's3'])(
    'passes every suite on the %s mount',
    async (mount) => {
      await expectLitmusPasses(`${server.url}/dav/${mount}/`, ADMIN.username, ADMIN.password);
    },
    300_000,
  );
});
