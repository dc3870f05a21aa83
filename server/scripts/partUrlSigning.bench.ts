// CPU per presigned UploadPart URL: the SDK's getSignedUrl against PartUrlSigner re-signing the
// SDK's first URL (src/storage/s3/partUrlSigner.ts). No network: signing is local.
// Run: npx tsx server/scripts/partUrlSigning.bench.ts [urls=2000]
import { S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PartUrlSigner, partUrlTemplate } from '../src/storage/s3/partUrlSigner.js';

const N = Number(process.argv[2] ?? 2000);
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const client = new S3Client({
  endpoint: 'http://127.0.0.1:9000',
  region: 'us-east-1',
  forcePathStyle: true,
  credentials,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
const input = { Bucket: 'bench', Key: 'folder/big file.bin', UploadId: 'upload-id-1' };

function sdk(partNumber: number): Promise<string> {
  return getSignedUrl(client, new UploadPartCommand({ ...input, PartNumber: partNumber }), { expiresIn: 900 });
}

async function measure(name: string, sign: (partNumber: number) => Promise<string> | string): Promise<void> {
  for (let i = 1; i <= 200; i++) await sign(i); // warm-up
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 1; i <= N; i++) await sign((i % 10_000) + 1);
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / N;
  const used = process.cpuUsage(cpu);
  const perUrl = (used.user + used.system) / N;
  console.log(
    `${name.padEnd(28)} ${perUrl.toFixed(1).padStart(8)} µs CPU/URL ${wall.toFixed(1).padStart(8)} µs wall/URL`,
  );
}

const template = partUrlTemplate(await sdk(1));
if (!template) throw new Error('the SDK URL is not a template PartUrlSigner reproduces');
const signer = new PartUrlSigner(credentials);
console.log(`${N} URLs each, Node ${process.version}`);
await measure('getSignedUrl (SDK)', sdk);
await measure('PartUrlSigner', (n) => signer.sign(template, n, 900, new Date()));
client.destroy();
