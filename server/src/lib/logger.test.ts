import { describe, expect, it } from 'vitest';
import { accessLine, createLogger, scrubSecrets, type AccessLine } from './logger.js';

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

  it('censors secret keys at the top level and one level down, and scrubs every string field but the plain ones', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    logger.info('config saved', {
      config: { name: 's3', secret_key: 'NESTED-S3CR3T', nested: { deep: 1 } },
      list: [{ api_key: 'LIST-KEY-123' }, 'plain'],
      authorization: 'Bearer top-level-bearer',
      cookie: 'session=COOKIE-VALUE',
      path: '/api/x/token=PATH-TOKEN',
      url: 'https://example.com/a?sign=URL-SIGN&dl=1',
    });
    logger.child?.({ req_id: 'r2', password: 'CHILD-PW' }).info('hello', { status: 200 });
    const text = JSON.stringify(lines);
    for (const secret of [
      'NESTED-S3CR3T',
      'LIST-KEY-123',
      'top-level-bearer',
      'COOKIE-VALUE',
      'PATH-TOKEN',
      'URL-SIGN',
      'CHILD-PW',
    ])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      config: { name: 's3', secret_key: '[redacted]', nested: { deep: 1 } },
      list: [{ api_key: '[redacted]' }, 'plain'],
      authorization: '[redacted]',
      url: 'https://example.com/a?sign=[redacted]&dl=1',
    });
    expect(lines[1]).toMatchObject({ req_id: 'r2', password: '[redacted]', status: 200, msg: 'hello' });
  });

  it('writes the access line as it is (request id, method, route, path, numbers, client)', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    const fields = {
      req_id: 'a1b2:c3',
      method: 'GET',
      route: '/api/paste/:slug',
      path: '/api/paste/abc',
      status: 200,
      ms: 1.2,
      bytes_in: 80,
      bytes_out: 2111,
      client: '::1',
    };
    logger.info('request', fields);
    expect(lines[0]).toMatchObject({ msg: 'request', ...fields });
  });

  it('writes the access line by hand exactly as pino writes the same fields (time aside)', () => {
    const raw: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void raw.push(line) });
    const line: AccessLine = {
      req_id: 'a1b2:c3',
      method: 'PROPFIND',
      route: '/dav/*',
      path: '/dav/名前 "x"\\y?&token=secret-value',
      status: 207,
      ms: 1.2,
      bytes_in: 80,
      bytes_out: 2111,
      client: '::1',
    };
    for (const fields of [line, { ...line, client: undefined }]) {
      logger.info('request', { ...fields });
      logger.access?.(fields);
    }
    const withoutTime = (text: string | undefined) => text?.replace(/"time":"[^"]+"/, '"time":""');
    expect(raw).toHaveLength(4);
    expect(withoutTime(raw[1])).toBe(withoutTime(raw[0]));
    expect(withoutTime(raw[3])).toBe(withoutTime(raw[2]));
    expect(raw[1]).not.toContain('secret-value');
    expect(JSON.parse(raw[1] ?? '')).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(accessLine(line).endsWith('}\n')).toBe(true);
    const quiet: string[] = [];
    createLogger('error', { write: (text: string) => void quiet.push(text) }).access?.(line);
    expect(quiet).toEqual([]);
  });

  it('flush() resolves (a synchronous destination has nothing buffered)', async () => {
    const { destination } = capture();
    await expect(createLogger('info', destination).flush?.()).resolves.toBeUndefined();
  });

  it('scrubSecrets leaves ordinary text alone', () => {
    expect(scrubSecrets('copied 3 files to /s3/backup in 2 s')).toBe('copied 3 files to /s3/backup in 2 s');
    expect(scrubSecrets('request')).toBe('request');
    expect(scrubSecrets('Basic\tQWxhZGRpbjpvcGVu')).toBe('Basic [redacted]');
  });
});
