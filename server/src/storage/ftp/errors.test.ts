import { FTPError } from 'basic-ftp';
import { describe, expect, it } from 'vitest';
import { mapFtpError } from './errors.js';

describe('mapFtpError', () => {
  it.each([
    'Server sent FIN packet unexpectedly, closing connection.',
    'Server closed connection unexpectedly.',
    "Control socket is disconnected, can't get remote address.",
    'Timeout when trying to open data connection to 127.0.0.1:40000',
    "None of the available transfer strategies work. Last error response was 'Error: connect ECONNREFUSED'.",
    'Client is closed because Server sent FIN packet unexpectedly, closing connection.',
  ])('a dropped connection is unavailable (503), not an io error: %s', (message) => {
    expect(mapFtpError(new Error(message)).code).toBe('unavailable');
  });

  it('a refused socket is unavailable by its code', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:21'), { code: 'ECONNREFUSED' });
    expect(mapFtpError(err).code).toBe('unavailable');
  });

  it('reply codes map by meaning', () => {
    expect(mapFtpError(new FTPError({ code: 550, message: '550 No such file' } as never)).code).toBe('not_found');
    expect(mapFtpError(new FTPError({ code: 530, message: '530 Login incorrect' } as never)).code).toBe('denied');
  });

  it('a listing it cannot parse stays an io error', () => {
    expect(mapFtpError(new Error('This library only supports MLSD, Unix- or DOS-style directory listing.')).code).toBe(
      'io',
    );
  });
});
