import type { LoginResult, PasskeyOptionsResult, PasskeyView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../src/security/totp.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { SoftAuthenticator } from './support/softAuthenticator.js';

type RegOptions = { challenge: string; rp: { id: string; name: string }; user: { id: string } };
type AuthOptions = { challenge: string; rpId: string };

describe.each(dbTargets)('passkeys on %s', (target) => {
  let server: TestServer;
  let token: string;
  let origin: string;
  const rpID = '127.0.0.1';
  const key = new SoftAuthenticator();

  beforeAll(async () => {
    server = await startTestServer(target);
    origin = server.url;
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function register(authenticator: SoftAuthenticator, name: string) {
    const start = await server.call<PasskeyOptionsResult<RegOptions>>('POST', '/api/admin/passkeys/register/options', {
      token,
      body: { password: ADMIN.password },
    });
    expect(start.status).toBe(200);
    const { challenge_id, options } = start.body.data!;
    return server.call<PasskeyView>('POST', '/api/admin/passkeys', {
      token,
      body: { challenge_id, name, response: authenticator.register(options, origin) },
    });
  }

  async function assertion(authenticator: SoftAuthenticator, verified = true) {
    const start = await server.call<PasskeyOptionsResult<AuthOptions>>('POST', '/api/admin/passkeys/login/options');
    const { challenge_id, options } = start.body.data!;
    expect(options.rpId).toBe(rpID);
    return { challenge_id, response: authenticator.authenticate(options, origin, rpID, verified) };
  }

  it('registers a passkey only with the password, and lists it', async () => {
    const refused = await server.call('POST', '/api/admin/passkeys/register/options', {
      token,
      body: { password: 'not-the-password' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.kind).toBe('password_wrong');
    const created = await register(key, 'Laptop');
    expect(created.status, created.body.message).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Laptop', last_used_at: null });
    const list = await server.call<{ items: PasskeyView[] }>('GET', '/api/admin/passkeys', { token });
    expect(list.body.data!.items.map((k) => k.name)).toEqual(['Laptop']);
    const stored = JSON.stringify(await server.built.database.db.selectFrom('admin_passkeys').selectAll().execute());
    expect(stored).toContain(key.id);
    // The same authenticator again: refused (the options exclude it, the server checks too).
    expect((await register(key, 'Again')).status).toBe(409);
  });

  it('a challenge is single use and bound to its purpose', async () => {
    const start = await server.call<PasskeyOptionsResult<RegOptions>>('POST', '/api/admin/passkeys/register/options', {
      token,
      body: { password: ADMIN.password },
    });
    const other = new SoftAuthenticator();
    const body = {
      challenge_id: start.body.data!.challenge_id,
      name: 'Phone',
      response: other.register(start.body.data!.options, origin),
    };
    expect((await server.call('POST', '/api/admin/passkeys', { token, body })).status).toBe(201);
    expect((await server.call('POST', '/api/admin/passkeys', { token, body })).status).toBe(400);
    const signIn = await assertion(other);
    const asRegistration = await server.call('POST', '/api/admin/passkeys', {
      token,
      body: { ...body, challenge_id: signIn.challenge_id },
    });
    expect(asRegistration.status).toBe(400);
  });

  it('signs in instead of the password with user verification, once per challenge', async () => {
    const signIn = await assertion(key);
    const res = await server.call<LoginResult>('POST', '/api/admin/passkeys/login', { body: signIn });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data!.username).toBe(ADMIN.username);
    const replay = await server.call('POST', '/api/admin/passkeys/login', { body: signIn });
    expect(replay.status).toBe(401);
    expect(replay.body.kind).toBe('totp_wrong');
    const noUv = await server.call('POST', '/api/admin/passkeys/login', { body: await assertion(key, false) });
    expect(noUv.status).toBe(401);
    // Signed for another site (a phishing page relaying the challenge): refused.
    const start = await server.call<PasskeyOptionsResult<AuthOptions>>('POST', '/api/admin/passkeys/login/options');
    const phished = {
      challenge_id: start.body.data!.challenge_id,
      response: key.authenticate(start.body.data!.options, 'https://evil.example', rpID),
    };
    expect((await server.call('POST', '/api/admin/passkeys/login', { body: phished })).status).toBe(401);
    const list = await server.call<{ items: PasskeyView[] }>('GET', '/api/admin/passkeys', { token });
    expect(list.body.data!.items.find((k) => k.name === 'Laptop')!.last_used_at).not.toBeNull();
  });

  it('is a second factor after the password when TOTP is on (user verification not needed)', async () => {
    const setup = await server.call<{ secret: string }>('POST', '/api/admin/2fa/setup', { token });
    const secret = setup.body.data!.secret;
    const on = await server.call<{ recovery_codes: string[] }>('POST', '/api/admin/2fa/enable', {
      token,
      body: { code: totpCodeAt(secret, server.clock.now().getTime()), password: ADMIN.password },
    });
    expect(on.status).toBe(200);
    const needed = await server.call('POST', '/api/admin/login', { body: ADMIN });
    expect(needed.body.data).toEqual({ methods: ['totp', 'recovery_code', 'passkey'] });
    const ok = await server.call<LoginResult>('POST', '/api/admin/login', {
      body: { ...ADMIN, passkey: await assertion(key, false) },
    });
    expect(ok.status, ok.body.message).toBe(200);
    const wrongPassword = await server.call('POST', '/api/admin/login', {
      body: { ...ADMIN, password: 'wrong-password-1', passkey: await assertion(key) },
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.kind).toBe('unauthorized');
    await server.call('POST', '/api/admin/2fa/disable', { token, body: { code: on.body.data!.recovery_codes[0] } });
  });

  it('renames and removes; a removed passkey no longer signs in', async () => {
    const list = await server.call<{ items: PasskeyView[] }>('GET', '/api/admin/passkeys', { token });
    const laptop = list.body.data!.items.find((k) => k.name === 'Laptop')!;
    const renamed = await server.call<PasskeyView>('PUT', `/api/admin/passkeys/${laptop.id}`, {
      token,
      body: { name: 'Work laptop' },
    });
    expect(renamed.body.data!.name).toBe('Work laptop');
    expect((await server.call('PUT', `/api/admin/passkeys/${laptop.id}`, { token, body: { name: '' } })).status).toBe(
      400,
    );
    expect((await server.call('DELETE', `/api/admin/passkeys/${laptop.id}`, { token })).status).toBe(200);
    expect((await server.call('DELETE', `/api/admin/passkeys/${laptop.id}`, { token })).status).toBe(404);
    const res = await server.call('POST', '/api/admin/passkeys/login', { body: await assertion(key) });
    expect(res.status).toBe(401);
  });
});

describe.each(dbTargets)('passkeys behind a reverse proxy on %s', (target) => {
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('binds passkeys to PUBLIC_URL when it is set, else to the forwarded host under TRUST_PROXY', async () => {
    server = await startTestServer(target, { PUBLIC_URL: 'https://clip.example.com/' });
    const start = await server.call<PasskeyOptionsResult<AuthOptions>>('POST', '/api/admin/passkeys/login/options', {
      headers: { 'x-forwarded-host': 'evil.example' },
    });
    expect(start.body.data!.options.rpId).toBe('clip.example.com');
    await server.close();
    server = await startTestServer(target, { TRUST_PROXY: 'true' });
    const proxied = await server.call<PasskeyOptionsResult<AuthOptions>>('POST', '/api/admin/passkeys/login/options', {
      headers: { 'x-forwarded-host': 'files.example.org', 'x-forwarded-proto': 'https' },
    });
    expect(proxied.body.data!.options.rpId).toBe('files.example.org');
  });
});
