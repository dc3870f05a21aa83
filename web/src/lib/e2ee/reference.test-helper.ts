// An independent implementation of docs/encryption.md on node:crypto (no Web Crypto, no code shared with
// the web module), used by the tests to check the published vectors from two sides.
import { createCipheriv, createHash, hkdfSync, pbkdf2Sync } from 'node:crypto';

export interface RefInputs {
  key: Buffer;
  salt: Buffer;
  password?: string;
  iterations?: number;
}

function aesKey(inputs: RefInputs, info: string): Buffer {
  const ikm = inputs.password
    ? Buffer.concat([inputs.key, pbkdf2Sync(inputs.password, inputs.salt, inputs.iterations!, 32, 'sha256')])
    : inputs.key;
  return Buffer.from(hkdfSync('sha256', ikm, inputs.salt, info, 32));
}

function gcm(key: Buffer, iv: Buffer, aad: Buffer, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

export function refPaste(inputs: RefInputs & { iv: Buffer }, json: string): string {
  const key = aesKey(inputs, 'clipnest-e2ee-v1 paste key');
  return gcm(key, inputs.iv, Buffer.from('clipnest-e2ee-v1 paste'), Buffer.from(json, 'utf8')).toString('base64url');
}

export function refFile(inputs: RefInputs & { prefix: Buffer }, header: string, data: Buffer): Buffer {
  const key = aesKey(inputs, 'clipnest-e2ee-v1 file key');
  const nonce = (i: number) => {
    const n = Buffer.alloc(12);
    inputs.prefix.copy(n, 0);
    n.writeUInt32BE(i, 8);
    return n;
  };
  const aad = (flag: number) => Buffer.concat([Buffer.from('CNF1'), Buffer.from([flag])]);
  const sealedHeader = gcm(key, nonce(0), aad(2), Buffer.from(header, 'utf8'));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(sealedHeader.length);
  const out = [Buffer.from('CNF1'), inputs.prefix, len, sealedHeader];
  const count = Math.max(1, Math.ceil(data.length / 65536));
  for (let i = 0; i < count; i++) {
    out.push(gcm(key, nonce(i + 1), aad(i === count - 1 ? 1 : 0), data.subarray(i * 65536, (i + 1) * 65536)));
  }
  return Buffer.concat(out);
}

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
