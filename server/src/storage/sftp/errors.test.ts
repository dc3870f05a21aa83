import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mapSftpError, SFTP_STATUS } from './errors.js';
import { hostKeyFingerprint, normalizeFingerprint } from './pool.js';

describe('sftp errors and host key fingerprints', () => {
  it('maps SFTP statuses, socket errors and SSH levels to storage codes (never a bare io for the network)', () => {
    expect(mapSftpError(Object.assign(new Error('No such file'), { code: SFTP_STATUS.NO_SUCH_FILE })).code).toBe(
      'not_found',
    );
    expect(mapSftpError(Object.assign(new Error('denied'), { code: SFTP_STATUS.PERMISSION_DENIED })).code).toBe(
      'denied',
    );
    expect(mapSftpError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).code).toBe('unavailable');
    expect(mapSftpError(Object.assign(new Error('handshake'), { level: 'client-timeout' })).code).toBe('unavailable');
    expect(mapSftpError(Object.assign(new Error('auth'), { level: 'client-authentication' })).code).toBe('denied');
    expect(mapSftpError(Object.assign(new Error('guard'), { code: 'EACCES' })).code).toBe('denied');
    expect(mapSftpError(new Error('No response from server')).code).toBe('unavailable');
  });

  it('fingerprints a host key as OpenSSH shows it and accepts the typed forms of it', () => {
    const key = Buffer.from('host key blob');
    const expected = createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
    expect(hostKeyFingerprint(key)).toBe(expected);
    expect(normalizeFingerprint(` SHA256:${expected}= `)).toBe(expected);
    expect(normalizeFingerprint(expected)).toBe(expected);
  });
});
