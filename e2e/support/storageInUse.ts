/** Storage configs in use for the storage config page tests (issue 35 point 15), arranged through the API. */
import type { StorageConfigView } from '@clipnest/contract';
import { call } from './api';
import { BASE_URL, E2E_ADMIN } from './env';
import { mount, s3Storage } from './mounts';
import { startS3rver, type S3rver } from './s3rver';

export interface StorageInUse {
  open: S3rver;
  closed: S3rver;
  used: StorageConfigView;
  unmounted: StorageConfigView;
}

/** An S3 config with open CORS, a 10 MB capacity, 1000 bytes of file share and 5000 bytes written through its mount; one with closed CORS, unmounted. */
export async function arrangeStorageInUse(
  token: string,
  names: { used: string; unmounted: string; mountPath: string } = {
    used: 'Team bucket',
    unmounted: 'Closed bucket',
    mountPath: '/team',
  },
): Promise<StorageInUse> {
  const [open, closed] = await Promise.all([
    startS3rver({ bucket: `p15-open${names.mountPath.slice(1)}`, cors: true }),
    startS3rver({ bucket: `p15-closed${names.mountPath.slice(1)}` }),
  ]);
  const used = await s3Storage(token, names.used, open);
  const unmounted = await s3Storage(token, names.unmounted, closed);
  await call('PUT', `/s3-configs/${used.id}`, { token, body: { total_capacity: 10 * 1024 * 1024 } });
  await mount(token, names.used, names.mountPath, used.id);
  const form = new FormData();
  form.append('s3_config_id', used.id);
  form.append('file', new Blob(['x'.repeat(1000)], { type: 'text/plain' }), 'notes.txt');
  const share = await fetch(`${BASE_URL}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (share.status !== 201) throw new Error(`share upload: ${share.status}`);
  const put = await fetch(`${BASE_URL}/dav${names.mountPath}/copied.bin`, {
    method: 'PUT',
    headers: {
      authorization: `Basic ${Buffer.from(`${E2E_ADMIN.username}:${E2E_ADMIN.password}`).toString('base64')}`,
    },
    body: 'y'.repeat(5000),
  });
  if (put.status !== 201) throw new Error(`WebDAV PUT: ${put.status}`);
  return { open, closed, used, unmounted };
}
