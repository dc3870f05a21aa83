import { S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { PartUrlSigner, partUrlTemplate } from './partUrlSigner.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

function client(endpoint: string | undefined, forcePathStyle: boolean, region = 'eu-west-1') {
  return new S3Client({
    ...(endpoint ? { endpoint } : {}),
    region,
    forcePathStyle,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function sdkUrl(
  c: S3Client,
  bucket: string,
  key: string,
  uploadId: string,
  partNumber: number,
  date: Date,
  ttl = 900,
  length?: number,
) {
  return getSignedUrl(
    c,
    new UploadPartCommand({
      Bucket: bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      ...(length !== undefined ? { ContentLength: length } : {}),
    }),
    {
      expiresIn: ttl,
      signingDate: date,
      ...(length !== undefined ? { signableHeaders: new Set(['content-length']) } : {}),
    },
  );
}

const cases = [
  { name: 'path-style emulator with a port', endpoint: 'http://127.0.0.1:9000', pathStyle: true, bucket: 'bench' },
  { name: 'AWS virtual-hosted', endpoint: undefined, pathStyle: false, bucket: 'my-bucket' },
  { name: 'AWS bucket with dots (path style)', endpoint: undefined, pathStyle: false, bucket: 'dots.in.name' },
  { name: 'custom endpoint with a base path', endpoint: 'https://s3.example.com/base', pathStyle: true, bucket: 'b' },
  { name: 'explicit default port', endpoint: 'https://minio.example.com:443', pathStyle: true, bucket: 'p' },
  {
    name: 'R2-like region auto',
    endpoint: 'https://acc.r2.cloudflarestorage.com',
    pathStyle: false,
    bucket: 'r2',
    region: 'auto',
  },
];

describe('PartUrlSigner', () => {
  it.each(cases)(
    're-signs another part exactly like the SDK ($name)',
    async ({ endpoint, pathStyle, bucket, region }) => {
      const c = client(endpoint, pathStyle, region);
      const key = 'folder/a dir/ü file+(1)~!*.bin';
      const uploadId = 'up/id+=x~2';
      const template = partUrlTemplate(await sdkUrl(c, bucket, key, uploadId, 1, new Date('2026-01-02T03:04:05Z')));
      expect(template).not.toBeNull();
      const signer = new PartUrlSigner(credentials);
      for (const [n, at, ttl] of [
        [7, '2026-01-02T03:04:05.678Z', 900],
        [10_000, '2026-03-04T23:59:59Z', 60],
      ] as const) {
        const date = new Date(at);
        expect(await signer.sign(template!, n, ttl, date)).toBe(await sdkUrl(c, bucket, key, uploadId, n, date, ttl));
      }
      c.destroy();
    },
  );

  it.each(cases)('re-signs parts with a signed Content-Length like the SDK ($name)', async (c0) => {
    const c = client(c0.endpoint, c0.pathStyle, c0.region);
    const first = await sdkUrl(c, c0.bucket, 'k/ü.bin', 'up+1', 1, new Date('2026-01-02T03:04:05Z'), 900, 5242880);
    expect(new URL(first).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    const template = partUrlTemplate(first);
    expect(template?.signsLength).toBe(true);
    const signer = new PartUrlSigner(credentials);
    const date = new Date('2026-01-02T04:00:00Z');
    // The last part is shorter: its own length is signed.
    expect(await signer.sign(template!, 9, 300, date, 1234)).toBe(
      await sdkUrl(c, c0.bucket, 'k/ü.bin', 'up+1', 9, date, 300, 1234),
    );
    await expect(signer.sign(template!, 2, 300, date)).rejects.toThrow(/Content-Length/);
    c.destroy();
  });

  it('refuses URLs it cannot reproduce', () => {
    expect(partUrlTemplate('https://b.s3.amazonaws.com/k')).toBeNull();
    expect(
      partUrlTemplate(
        'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-SignedHeaders=host%3Bx-amz-sdk-checksum-algorithm&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=A%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&partNumber=1',
      ),
    ).toBeNull();
    expect(
      partUrlTemplate(
        'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-SignedHeaders=host&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=A%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=t&partNumber=1',
      ),
    ).toBeNull();
  });
});
