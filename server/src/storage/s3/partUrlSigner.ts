// Presigned UploadPart URLs without the SDK's middleware stack. getSignedUrl costs ~2 ms of CPU per
// URL (endpoint resolution, serialisation, a fresh signing-key derivation); a multipart upload signs
// one URL per part, so that was most of the server's work during a large upload. The first URL of an
// upload is signed by the SDK and kept as a template: host, path and query (bucket style, endpoint
// path, key and uploadId encoding) stay exactly what the SDK chose; only partNumber, date, expiry and
// the SigV4 signature (query-string form, host header, UNSIGNED-PAYLOAD) are recomputed here.
import { createHash, createHmac } from 'node:crypto';

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SIGNATURE = 'X-Amz-Signature';

/** A URL the SDK presigned that this signer can re-sign for other parts. */
export interface PartUrlTemplate {
  /** scheme://host[:port]/path, as the SDK wrote it. */
  base: string;
  host: string;
  /** The path as the SDK encoded it (the SigV4 canonical URI of S3: encoded once). */
  path: string;
  accessKeyId: string;
  region: string;
  service: string;
  /** Decoded query parameters without the signature. */
  params: Map<string, string>;
}

/** SigV4 URI encoding (RFC 3986 unreserved characters kept). */
function sigv4Escape(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** The template of an SDK-signed UploadPart URL, or null when it is not one this signer reproduces. */
export function partUrlTemplate(url: string): PartUrlTemplate | null {
  const match = /^(https?:\/\/([^/?#]+))(\/[^?#]*)?\?([^#]*)$/.exec(url);
  if (!match) return null;
  const [, origin, host, path = '/', query] = match as unknown as [string, string, string, string | undefined, string];
  const params = new Map<string, string>();
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
    params.set(key, eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1)));
  }
  const scope = (params.get('X-Amz-Credential') ?? '').split('/');
  if (
    params.get('X-Amz-Algorithm') !== ALGORITHM ||
    params.get('X-Amz-SignedHeaders') !== 'host' ||
    params.get('X-Amz-Content-Sha256') !== 'UNSIGNED-PAYLOAD' ||
    params.has('X-Amz-Security-Token') ||
    !params.has('partNumber') ||
    scope.length !== 5 ||
    scope[4] !== 'aws4_request'
  ) {
    return null;
  }
  params.delete(SIGNATURE);
  const [accessKeyId, , region, service] = scope as [string, string, string, string, string];
  return { base: origin + path, host, path, accessKeyId, region, service, params };
}

/** Signs part URLs from templates; the signing key is derived once per day. */
export class PartUrlSigner {
  private key: { day: string; region: string; service: string; value: Buffer } | undefined;

  constructor(private readonly secretAccessKey: string) {}

  private signingKey(day: string, region: string, service: string): Buffer {
    const cached = this.key;
    if (cached && cached.day === day && cached.region === region && cached.service === service) return cached.value;
    const value = hmac(hmac(hmac(hmac(`AWS4${this.secretAccessKey}`, day), region), service), 'aws4_request');
    this.key = { day, region, service, value };
    return value;
  }

  sign(template: PartUrlTemplate, partNumber: number, expiresInSeconds: number, now: Date): string {
    const amzDate = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const scope = `${day}/${template.region}/${template.service}/aws4_request`;
    const params = new Map(template.params);
    params.set('partNumber', String(partNumber));
    params.set('X-Amz-Date', amzDate);
    params.set('X-Amz-Expires', String(expiresInSeconds));
    params.set('X-Amz-Credential', `${template.accessKeyId}/${scope}`);
    const encoded = [...params].map(([k, v]) => [sigv4Escape(k), sigv4Escape(v)] as const);
    encoded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const canonicalQuery = encoded.map(([k, v]) => `${k}=${v}`).join('&');
    const canonicalRequest = [
      'PUT',
      template.path,
      canonicalQuery,
      `host:${template.host}`,
      '',
      'host',
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const stringToSign = [
      ALGORITHM,
      amzDate,
      scope,
      createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
    ].join('\n');
    const signature = hmac(this.signingKey(day, template.region, template.service), stringToSign).toString('hex');
    // The SDK writes the query sorted, the signature in its place.
    encoded.push([SIGNATURE, signature]);
    encoded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `${template.base}?${encoded.map(([k, v]) => `${k}=${v}`).join('&')}`;
  }
}
