// Recomputes the SigV4 query signature of a presigned PUT URL the way S3 checks it (the emulators here check
// none: s3rver never, moto 5.2 only the Authorization header), so a test can tell whether S3 would accept a
// PUT carrying given headers.
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';

/** true when S3 would accept a PUT of `url` carrying these headers (lower-case names) with these credentials. */
export async function s3WouldAccept(
  url: string,
  sent: Record<string, string>,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<boolean> {
  const u = new URL(url);
  const q = Object.fromEntries(u.searchParams);
  const signedHeaders = (q['X-Amz-SignedHeaders'] ?? '').split(';');
  const headers: Record<string, string> = { host: u.host };
  for (const name of signedHeaders) {
    if (name === 'host') continue;
    const value = sent[name];
    if (value === undefined) return false;
    headers[name] = value;
  }
  const [, , region, service] = (q['X-Amz-Credential'] ?? '').split('/');
  const date = q['X-Amz-Date']!;
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (!k.startsWith('X-Amz-')) query[k] = v;
  const signer = new SignatureV4({
    credentials,
    region: region!,
    service: service!,
    sha256: Sha256,
    uriEscapePath: false,
  });
  const request = new HttpRequest({
    method: 'PUT',
    protocol: u.protocol,
    hostname: u.hostname,
    port: u.port ? Number(u.port) : undefined,
    path: u.pathname,
    query,
    headers: { ...headers, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
  });
  const signed = await signer.presign(request, {
    signingDate,
    expiresIn: Number(q['X-Amz-Expires']),
    signingRegion: region,
    signingService: service,
  });
  return signed.query?.['X-Amz-Signature'] === q['X-Amz-Signature'];
}
