import {
  passkeyLoginSchema,
  passkeyRegisterSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRenameSchema,
  totpDisableSchema,
  totpEnableSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import { relyingParty } from '../http/relyingParty.js';
import { requestHeader } from '../http/requestHeader.js';
import type { AuthService } from '../services/auth/authService.js';
import type { PasskeyService } from '../services/auth/passkeyService.js';
import type { TwoFactorService } from '../services/auth/twoFactorService.js';

const SMALL = { maxBytes: 16 * 1024 };

/** /api/admin/2fa (TOTP and recovery codes), /api/admin/sessions, /api/admin/passkeys. */
export function twoFactorRoutes(deps: {
  auth: AuthService;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
  guard: Guard;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  const { auth, twoFactor, passkeys, guard } = deps;
  const rp = (c: Parameters<typeof relyingParty>[0]) => relyingParty(c, deps.trustProxy, deps.publicUrl);
  return (
    new Hono<AppEnv>()
      .get('/2fa', async (c) => ok(c, await twoFactor.status((await guard.admin(c)).adminId)))
      .post('/2fa/setup', async (c) => ok(c, await twoFactor.setup(await guard.admin(c)), { message: 'scan the code' }))
      .post('/2fa/enable', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, totpEnableSchema, SMALL);
        const result = await twoFactor.enable(principal, input, c.var.clientAddress);
        return ok(c, result, { message: 'two-factor sign-in is on: keep the recovery codes somewhere safe' });
      })
      .post('/2fa/disable', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, totpDisableSchema, SMALL);
        await twoFactor.disable(principal, input.code, c.var.clientAddress);
        return ok(c, await twoFactor.status(principal.adminId), { message: 'two-factor sign-in is off' });
      })
      .post('/2fa/recovery-codes', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, totpDisableSchema, SMALL);
        const result = await twoFactor.renewRecoveryCodes(principal, input.code, c.var.clientAddress);
        return ok(c, result, { message: 'new recovery codes: the old ones no longer work' });
      })
      .get('/sessions', async (c) => {
        const items = await auth.sessions(await guard.admin(c));
        return ok(c, { items, total: items.length });
      })
      .delete('/sessions', async (c) => {
        const ended = await auth.endOtherSessions(await guard.admin(c), c.var.clientAddress);
        return ok(c, { ended }, { message: 'every other sign-in ended' });
      })
      .delete('/sessions/:id', async (c) => {
        await auth.endSession(await guard.admin(c), c.req.param('id'), c.var.clientAddress);
        return ok(c, undefined, { message: 'sign-in ended' });
      })
      .get('/passkeys', async (c) => {
        const items = await passkeys.list(await guard.admin(c));
        return ok(c, { items, total: items.length });
      })
      .post('/passkeys/register/options', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, passkeyRegistrationOptionsSchema, SMALL);
        return ok(c, await passkeys.registrationOptions(principal, input.password, rp(c), c.var.clientAddress));
      })
      .post('/passkeys', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, passkeyRegisterSchema, { maxBytes: 64 * 1024 });
        const created = await passkeys.register(principal, input, rp(c), c.var.clientAddress);
        return ok(c, created, { status: 201, message: 'passkey added' });
      })
      .put('/passkeys/:id', async (c) => {
        const principal = await guard.admin(c);
        const input = await readJson(c, passkeyRenameSchema, SMALL);
        return ok(c, await passkeys.rename(principal, c.req.param('id'), input.name, c.var.clientAddress));
      })
      .delete('/passkeys/:id', async (c) => {
        await passkeys.remove(await guard.admin(c), c.req.param('id'), c.var.clientAddress);
        return ok(c, undefined, { message: 'passkey removed' });
      })
      // Sign-in with a passkey (public): options, then the assertion instead of the password.
      .post('/passkeys/login/options', async (c) => ok(c, await passkeys.authenticationOptions(rp(c))))
      .post('/passkeys/login', async (c) => {
        const input = await readJson(c, passkeyLoginSchema, { maxBytes: 64 * 1024 });
        const result = await auth.loginWithPasskey(input, {
          client: c.var.clientAddress,
          userAgent: requestHeader(c, 'user-agent'),
          rp: rp(c),
        });
        return ok(c, result, { message: 'logged in' });
      })
  );
}
