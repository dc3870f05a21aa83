// Presigned UploadPart URLs without the SDK's middleware stack. getSignedUrl costs ~1 ms of CPU per
// URL (middleware stack, endpoint resolution, serialisation) and a multipart upload signs one URL per
// part. The first URL of an upload is signed by the SDK and kept as a template: host, path and query
// (bucket style, endpoint path, key and uploadId encoding) stay exactly what the SDK chose. The other
// parts are signed by the SDK's own SigV4 signer (@smithy/signature-v4 `presign`) from that template,
// with only partNumber, date and expiry changed.
// CPU per URL (scripts/partUrlSigning.bench.ts, 2000-5000 URLs, Node 20, 2 busy cores): getSignedUrl
// 810-1580 µs, SignatureV4.presign from the template 86-180 µs, the hand-written SigV4 code this file
// held before 44-73 µs. Twice the hand code, still a tenth of the SDK, and no crypto of our own.
import { Sha256 } from '@smithy/core/checksum';
import { buildQueryString, HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';

/** The query parameters presign() writes itself; the template keeps everything else. */
const SIGNING_PARAMS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
  'X-Amz-Content-Sha256',
];

/** A URL the SDK presigned that PartUrlSigner can re-sign for other parts. */
export interface PartUrlTemplate {
  /** scheme://host[:port]/path, as the SDK wrote it. */
  base: string;
  /** The UploadPart request as the SDK signed it: path encoded once (S3 style), decoded query. */
  request: HttpRequest;
  region: string;
  service: string;
  /** The URL signs Content-Length (each part's exact size): sign() must be given the part's length. */
  signsLength: boolean;
}

/** The template of an SDK-signed UploadPart URL, or null when it is not one this signer reproduces. */
export function partUrlTemplate(url: string): PartUrlTemplate | null {
  // Not `new URL()`: it would drop a default port and re-encode the path, and both are signed.
  const match = /^((https?):\/\/([^/?#]+))(\/[^?#]*)?\?([^#]*)$/.exec(url);
  if (!match) return null;
  const [, origin, protocol, host, path = '/', search] = match as unknown as [
    string,
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const query: Record<string, string> = {};
  for (const pair of search.split('&')) {
    const eq = pair.indexOf('=');
    query[decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq))] = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
  }
  const scope = (query['X-Amz-Credential'] ?? '').split('/');
  const signedHeaders = query['X-Amz-SignedHeaders'];
  if (
    query['X-Amz-Algorithm'] !== 'AWS4-HMAC-SHA256' ||
    (signedHeaders !== 'host' && signedHeaders !== 'content-length;host') ||
    query['X-Amz-Content-Sha256'] !== 'UNSIGNED-PAYLOAD' ||
    'X-Amz-Security-Token' in query ||
    !('partNumber' in query) ||
    scope.length !== 5 ||
    scope[4] !== 'aws4_request'
  ) {
    return null;
  }
  for (const name of SIGNING_PARAMS) delete query[name];
  const [, , region, service] = scope as [string, string, string, string, string];
  const port = /:(\d+)$/.exec(host);
  const request = new HttpRequest({
    method: 'PUT',
    protocol: `${protocol}:`,
    hostname: port ? host.slice(0, port.index) : host,
    ...(port ? { port: Number(port[1]) } : {}),
    path,
    query,
    // As the SDK's presigner: the payload hash is given as a header, which presign() moves to the query.
    headers: { host, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
  });
  return { base: origin + path, request, region, service, signsLength: signedHeaders === 'content-length;host' };
}

/** Signs part URLs from templates with one SigV4 signer (it caches the signing key per day). */
export class PartUrlSigner {
  private readonly signer: SignatureV4;

  constructor(credentials: { accessKeyId: string; secretAccessKey: string }) {
    this.signer = new SignatureV4({
      credentials,
      // Only a default: every URL is signed for the region and service of its template.
      region: 'us-east-1',
      service: 's3',
      sha256: Sha256,
      // S3 signs the path as sent (encoded once), as the SDK's S3 presigner does.
      uriEscapePath: false,
      applyChecksum: false,
    });
  }

  /** `contentLength`: the part's exact size, required by (and only by) templates that sign it. */
  async sign(
    template: PartUrlTemplate,
    partNumber: number,
    expiresInSeconds: number,
    now: Date,
    contentLength?: number,
  ): Promise<string> {
    const { request } = template;
    if (template.signsLength !== (contentLength !== undefined)) {
      throw new Error('a part URL signs Content-Length exactly when its template does');
    }
    const headers =
      contentLength === undefined ? request.headers : { ...request.headers, 'content-length': String(contentLength) };
    const signed = await this.signer.presign(
      { ...request, headers, query: { ...request.query, partNumber: String(partNumber) } },
      {
        signingDate: now,
        expiresIn: expiresInSeconds,
        signingRegion: template.region,
        signingService: template.service,
      },
    );
    // The SDK writes the URL the same way (formatUrl: keys sorted, values escaped as SigV4 does).
    return `${template.base}?${buildQueryString(signed.query ?? {})}`;
  }
}
