import type { Context, Next } from 'hono';
import { routePath } from 'hono/route';
import type { AuditLog } from '../services/admin/audit/auditLog.js';
import type { AdminPrincipal } from '../auth/principal.js';
import { capturedOf } from './auditCapture.js';
import { apiRuleOf, DAV_AUDIT_RULES, READ_METHODS, type AuditRule } from './auditRules.js';
import type { AppEnv } from './env.js';

type Ctx = Context<AppEnv>;

/**
 * The fields a target is made of, wherever they appear (route params, query, JSON body, the answer's data).
 * A name not listed here is never recorded: a body's `password`, a new key's `key`, a token in a path.
 */
const TARGET_FIELDS = [
  'id',
  'ids',
  'slug',
  'slugs',
  'group',
  'username',
  'name',
  'path',
  'paths',
  'oldPath',
  'newPath',
  'sourcePath',
  'targetPath',
  'filename',
  'storage_config_id',
  'targetMountId',
  'mount_id',
  'taskId',
  'task_id',
  'modules',
] as const;
const TARGET_FIELD_SET = new Set<string>(TARGET_FIELDS);
/** Nested lists whose items carry target fields (batch copy items). */
const ITEM_LISTS = ['items', 'files'] as const;
const MAX_LIST = 20;

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function fieldValue(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const items = value
      .slice(0, MAX_LIST)
      .map(scalar)
      .filter((v): v is string => v !== undefined);
    if (items.length === 0) return undefined;
    return items.join(', ') + (value.length > MAX_LIST ? ` … (+${value.length - MAX_LIST})` : '');
  }
  return scalar(value);
}

function pick(source: unknown, into: Map<string, string>): void {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return;
  const record = source as Record<string, unknown>;
  for (const name of TARGET_FIELDS) {
    if (into.has(name)) continue;
    const value = fieldValue(record[name]);
    if (value !== undefined && value !== '') into.set(name, value);
  }
  for (const list of ITEM_LISTS) {
    const items = record[list];
    if (!Array.isArray(items) || into.has(list)) continue;
    const parts = items.slice(0, MAX_LIST).map((item) => {
      const inner = new Map<string, string>();
      pick(item, inner);
      return [...inner.values()].join(' → ');
    });
    const text = parts.filter(Boolean).join('; ');
    if (text) into.set(list, text + (items.length > MAX_LIST ? ` … (+${items.length - MAX_LIST})` : ''));
  }
}

/** The target of a recorded request: named id/path fields of its params, query, body and answer. */
export function targetOf(c: Ctx, rule?: AuditRule): string | null {
  const found = new Map<string, string>();
  const params = c.req.param() as Record<string, string>;
  for (const [name, value] of Object.entries(params)) {
    const plain = name.replace(/\{.*$/, '');
    if (TARGET_FIELD_SET.has(plain) && value) found.set(plain, value);
  }
  const query = c.req.query();
  pick(query, found);
  const { body, data } = capturedOf(c);
  pick(body, found);
  if (rule?.bodyKeys && typeof body === 'object' && body !== null) {
    found.set('keys', Object.keys(body).slice(0, 50).join(', '));
  }
  pick(data, found);
  if (found.size === 0) return null;
  return [...found].map(([name, value]) => `${name}=${value}`).join(' ');
}

/** The admin a successful sign-in answered for. */
function signedIn(c: Ctx): AdminPrincipal | undefined {
  const data = capturedOf(c).data as { username?: unknown } | undefined;
  return typeof data?.username === 'string'
    ? { type: 'admin', adminId: '', username: data.username, tokenHash: '', expiresAt: '' }
    : undefined;
}

function errorMessage(c: Ctx): string | null {
  const error = c.error;
  return error instanceof Error ? error.message : null;
}

/**
 * Records a failed use of an API key: a 401/403 answered to a key holder, or a key the guard refused (also on
 * public pages, where a bad key falls back to anonymous). `attempted` names what the request tried.
 */
function recordKeyFailure(audit: AuditLog, c: Ctx, attempted: string): void {
  const failure = c.get('credentialFailure');
  const status = c.res.status;
  audit.record({
    action: 'auth.apikey.failed',
    principal: c.get('principal'),
    target: attempted,
    status: status >= 400 ? status : 401,
    client: c.get('clientAddress'),
    requestId: c.get('requestId'),
    detail: failure ?? errorMessage(c),
  });
}

/** The API's audit trail: after the handler, records a change (or a view, when asked for) and failed key uses. */
export function apiAuditTrail(audit: AuditLog) {
  return async (c: Ctx, next: Next) => {
    await next();
    // The answer is made: nothing here may change it.
    await recordApi(audit, c).catch((error: unknown) => audit.failed(error));
  };
}

async function recordApi(audit: AuditLog, c: Ctx): Promise<void> {
  const method = c.req.method;
  let route: string;
  try {
    route = routePath(c);
  } catch {
    return;
  }
  const rule = apiRuleOf(method, route);
  const status = c.res.status;
  const principal = c.get('principal');
  if (c.get('credentialFailure') || ((status === 401 || status === 403) && principal?.type === 'apikey')) {
    const target = targetOf(c, rule);
    recordKeyFailure(audit, c, `${rule?.action ?? `${method} ${route}`}${target ? ` ${target}` : ''}`);
    return;
  }
  if (!rule || rule.skip !== undefined) return;
  if (READ_METHODS.has(method) && !rule.view) return;
  if (rule.view && !(await audit.viewsAudited())) return;
  const failed = status >= 400;
  audit.record({
    action: failed && rule.failed ? rule.failed : rule.action,
    principal: rule.signIn && !failed ? (signedIn(c) ?? principal) : principal,
    target: targetOf(c, rule),
    status,
    client: c.get('clientAddress'),
    requestId: c.get('requestId'),
    detail: failed ? errorMessage(c) : null,
  });
}

/** The WebDAV audit trail: writes (PUT, DELETE, MKCOL, COPY, MOVE, PROPPATCH) and refused credentials. */
export function davAuditTrail(audit: AuditLog, pathOf: (c: Ctx) => string | undefined) {
  return async (c: Ctx, next: Next) => {
    await next();
    try {
      recordDav(audit, c, pathOf);
    } catch (error) {
      audit.failed(error);
    }
  };
}

function recordDav(audit: AuditLog, c: Ctx, pathOf: (c: Ctx) => string | undefined): void {
  const method = c.req.method.toUpperCase();
  const status = c.res.status;
  const rule = DAV_AUDIT_RULES[method];
  if ((status === 401 || status === 403) && /^Basic\s/i.test(c.req.header('authorization') ?? '')) {
    const principal = c.get('principal');
    // Never the Basic user: a key is sent as both user and password.
    audit.record({
      action: principal ? 'webdav.denied' : 'auth.webdav.failed',
      principal,
      target: `${method} ${safePath(c, pathOf)}`,
      status,
      client: c.get('clientAddress'),
      requestId: c.get('requestId'),
      detail: errorMessage(c),
    });
    return;
  }
  if (!rule || rule.skip !== undefined || !c.get('principal')) return;
  const destination = c.req.header('destination');
  let to = '';
  if ((method === 'COPY' || method === 'MOVE') && destination) {
    try {
      to = ` → ${decodeURIComponent(new URL(destination, c.req.url).pathname).replace(/^\/dav/, '') || '/'}`;
    } catch {
      to = '';
    }
  }
  audit.record({
    action: rule.action,
    principal: c.get('principal'),
    target: `path=${safePath(c, pathOf)}${to}`,
    status,
    client: c.get('clientAddress'),
    requestId: c.get('requestId'),
    detail: status >= 400 ? errorMessage(c) : null,
  });
}

function safePath(c: Ctx, pathOf: (c: Ctx) => string | undefined): string {
  try {
    return pathOf(c) ?? c.req.path;
  } catch {
    return c.req.path;
  }
}

/**
 * Records an event the route table cannot see (a second factor turned on, a sign-in step) for the request `c`:
 * actor, client address and request id come from the request. For handlers and auth code:
 * `recordAudit(audit, c, { action: 'auth.2fa.enable' })`.
 */
export function recordAudit(
  audit: AuditLog,
  c: Ctx,
  input: { action: string; target?: string | null; status?: number; detail?: string | null },
): void {
  audit.record({
    principal: c.get('principal'),
    client: c.get('clientAddress'),
    requestId: c.get('requestId'),
    ...input,
  });
}
