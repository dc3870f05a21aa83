import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

describe('logger', () => {
  it('writes one JSON object per line with level, time, msg and fields; below its level nothing', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    logger.info('request', { req_id: 'abc', status: 200 });
    logger.debug('hidden');
    logger.child?.({ req_id: 'r1' }).error('boom', new Error('it failed'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', req_id: 'abc', status: 200, app: 'clipnest' });
    expect(typeof lines[0]?.time).toBe('string');
    expect(lines[1]).toMatchObject({ level: 'error', msg: 'boom', req_id: 'r1', err: { message: 'it failed' } });
  });

  it('never writes secrets: tokens, keys, passwords, presigned signatures', () => {
    const { lines, destination } = capture();
    const logger = createLogger('debug', destination);
    const presigned =
      'https://s3.example/bucket/a.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101&X-Amz-Signature=0123456789abcdef';
    logger.info(`fetching ${presigned}`, { url: presigned, password: 'hunter22', token: 'tok-123456' });
    logger.error(
      'auth failed for Authorization: Bearer abcdefghijklmnop',
      new Error('password=hunter22 secret_key: "S3CR3T"'),
    );
    logger.debug('key header ApiKey zzzzzzzzzzzz and /api/file/x?sign=deadbeef&dl=1');
    const text = JSON.stringify(lines);
    for (const secret of [
      '0123456789abcdef',
      'AKIAEXAMPLE',
      'hunter22',
      'tok-123456',
      'abcdefghijklmnop',
      'S3CR3T',
      'zzzzzzzzzzzz',
      'deadbeef',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('X-Amz-Algorithm=AWS4-HMAC-SHA256');
    expect(text).toContain('[redacted]');
  });

  it('scrubSecrets leaves ordinary text alone', () => {
    expect(scrubSecrets('copied 3 files to /s3/backup in 2 s')).toBe('copied 3 files to /s3/backup in 2 s');
  });
});
