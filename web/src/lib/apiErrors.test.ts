import { describe, expect, it } from 'vitest';
import {
  isEnvelopeSuccess,
  isFileOrUploadEndpoint,
  isPasswordCheck,
  mapHttpFailure,
  mapTransportFailure,
  type HttpFailure,
} from './apiErrors';

const base: HttpFailure = {
  status: 500,
  statusText: 'Internal Server Error',
  authKind: 'none',
  path: '/x',
  method: 'GET',
};

describe('envelope rule (spec §7)', () => {
  it('accepts 200/201/202 codes and bodies without a code', () => {
    expect(isEnvelopeSuccess({ code: 200, message: 'ok' })).toBe(true);
    expect(isEnvelopeSuccess({ code: 201 })).toBe(true);
    expect(isEnvelopeSuccess({ code: 202 })).toBe(true);
    expect(isEnvelopeSuccess({ data: 1 })).toBe(true);
    expect(isEnvelopeSuccess(undefined)).toBe(true);
    expect(isEnvelopeSuccess('plain text')).toBe(true);
  });
  it('rejects any other code, even inside an HTTP 200', () => {
    expect(isEnvelopeSuccess({ code: 204 })).toBe(false);
    expect(isEnvelopeSuccess({ code: 400, message: 'bad' })).toBe(false);
    expect(isEnvelopeSuccess({ code: '200' })).toBe(false);
  });
});

describe('401 mapping (spec §8)', () => {
  it('Bearer: logs out with "admin session expired"', () => {
    expect(mapHttpFailure({ ...base, status: 401, authKind: 'bearer', serverMessage: 'token expired' })).toEqual({
      message: { key: 'errors.adminSessionExpired' },
      logout: 'admin-token-expired',
    });
  });

  it('ApiKey: logs out with "API key invalid or expired"', () => {
    expect(mapHttpFailure({ ...base, status: 401, authKind: 'apikey', path: '/pastes' })).toEqual({
      message: { key: 'errors.apiKeyInvalid' },
      logout: 'api-key-invalid',
    });
  });

  it('ApiKey on a file/upload endpoint, a 401 about something else than the key: says so and keeps the session', () => {
    for (const path of ['/upload', '/files/abc', '/s3/presign', '/fs/upload', '/fs/multipart/init', '/url/info']) {
      expect(
        mapHttpFailure({
          ...base,
          status: 401,
          authKind: 'apikey',
          path,
          kind: 'password_wrong',
          serverMessage: 'wrong password',
        }),
      ).toEqual({ message: { key: 'errors.wrongPassword' } });
    }
  });

  it('ApiKey on a file endpoint: a 401 whose kind is unauthorized (or that has no kind) logs out, whatever it says', () => {
    for (const kind of ['unauthorized', undefined] as const) {
      expect(
        mapHttpFailure({ ...base, status: 401, authKind: 'apikey', path: '/upload', kind, serverMessage: 'no access' }),
      ).toEqual({ message: { key: 'errors.apiKeyInvalid' }, logout: 'api-key-invalid' });
    }
  });

  it('ApiKey with a 401 on a non-file endpoint logs out', () => {
    expect(
      mapHttpFailure({
        ...base,
        status: 401,
        authKind: 'apikey',
        path: '/pastes',
        kind: 'password_wrong',
        serverMessage: 'wrong password',
      }).logout,
    ).toBe('api-key-invalid');
  });

  it('no credentials: "unauthorized, please log in"', () => {
    expect(mapHttpFailure({ ...base, status: 401, serverMessage: 'whatever' })).toEqual({
      message: { key: 'errors.unauthorized' },
    });
  });

  it('password checks say "wrong password" in the UI language (never the server sentence) and never log out', () => {
    const check = { ...base, status: 401, method: 'POST', authKind: 'bearer' as const, body: { password: 'x' } };
    expect(
      mapHttpFailure({ ...check, path: '/paste/abc', kind: 'password_wrong', serverMessage: 'wrong password' }),
    ).toEqual({ message: { key: 'errors.wrongPassword' } });
    expect(mapHttpFailure({ ...check, path: '/public/files/abc/verify' })).toEqual({
      message: { key: 'errors.wrongPassword' },
    });
  });

  it('change-password: "verification failed" whatever the server said, no logout', () => {
    const call = { ...base, status: 401, authKind: 'bearer' as const, path: '/admin/change-password' };
    expect(mapHttpFailure({ ...call, serverMessage: 'current password is wrong' })).toEqual({
      message: { key: 'errors.verificationFailed' },
    });
    expect(mapHttpFailure(call)).toEqual({ message: { key: 'errors.verificationFailed' } });
  });

  it('a wrong second-factor code or password sent with the admin token keeps the session', () => {
    const call = { ...base, status: 401, authKind: 'bearer' as const, path: '/admin/2fa/disable' };
    expect(mapHttpFailure({ ...call, kind: 'totp_wrong' })).toEqual({ message: { key: 'errors.kinds.totp_wrong' } });
    expect(mapHttpFailure({ ...call, kind: 'password_wrong' })).toEqual({ message: { key: 'errors.wrongPassword' } });
    expect(mapHttpFailure({ ...call, kind: 'unauthorized' }).logout).toBe('admin-token-expired');
  });
});

describe('other statuses', () => {
  it('409: the slug text when the conflict names the slug (or says nothing), else the conflict text', () => {
    const slug = { fields: [{ path: 'slug', message: 'the link suffix is taken, try another suffix' }] };
    expect(
      mapHttpFailure({ ...base, status: 409, kind: 'conflict', data: slug, serverMessage: 'the link suffix is taken' }),
    ).toEqual({ message: { key: 'errors.slugTaken' } });
    expect(mapHttpFailure({ ...base, status: 409, kind: 'conflict', serverMessage: 'name exists' })).toEqual({
      message: { key: 'errors.kinds.conflict' },
    });
    expect(mapHttpFailure({ ...base, status: 409 })).toEqual({ message: { key: 'errors.slugTaken' } });
  });

  it('anything else: chosen by kind (or the status), never the server sentence', () => {
    expect(mapHttpFailure({ ...base, status: 404, kind: 'not_found', serverMessage: 'no such paste' })).toEqual({
      message: { key: 'errors.kinds.not_found' },
    });
    expect(mapHttpFailure({ ...base, status: 410, kind: 'expired', serverMessage: 'no views left' })).toEqual({
      message: { key: 'errors.kinds.expired' },
    });
    expect(mapHttpFailure({ ...base, status: 502, statusText: 'Bad Gateway' })).toEqual({
      message: { key: 'errors.kinds.bad_gateway' },
    });
    expect(mapHttpFailure({ ...base, status: 504, statusText: '', serverMessage: 'upstream timed out' })).toEqual({
      message: { key: 'errors.http', params: { status: 504, statusText: '504' } },
    });
  });

  it('a reason in data picks its own text ("URL refused…")', () => {
    const data = { fields: [{ path: 'url', message: 'a loopback address' }], reason: 'url_refused' };
    expect(
      mapHttpFailure({ ...base, status: 400, kind: 'validation', data, serverMessage: 'URL refused: loopback' }),
    ).toEqual({ message: { key: 'errors.reasons.url_refused' } });
    expect(mapHttpFailure({ ...base, status: 400, kind: 'validation', data: { reason: 'made_up' } })).toEqual({
      message: { key: 'errors.kinds.validation' },
    });
  });

  it('transport failures', () => {
    expect(mapTransportFailure('aborted')).toEqual({ key: 'errors.aborted' });
    expect(mapTransportFailure('timeout')).toEqual({ key: 'errors.timeout' });
    expect(mapTransportFailure('network')).toEqual({ key: 'errors.network' });
  });
});

describe('helpers', () => {
  it('detects password checks by the body', () => {
    expect(isPasswordCheck('/paste/x', { password: '' })).toBe(true);
    expect(isPasswordCheck('/paste/x', { content: 'a' })).toBe(false);
    expect(isPasswordCheck('/admin/login', { username: 'a', password: 'b' })).toBe(false);
    expect(isPasswordCheck('/paste/x', undefined)).toBe(false);
  });
  it('knows file and upload endpoints', () => {
    expect(isFileOrUploadEndpoint('/upload?x=1')).toBe(true);
    expect(isFileOrUploadEndpoint('/fs/list')).toBe(false);
    expect(isFileOrUploadEndpoint('/pastes')).toBe(false);
  });
});
