import type { ApiKeyTestResult, ApiKeyView, CreateApiKey, UpdateApiKey } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newId } from '../../lib/ids.js';
import type { ApiKeyRepository, ApiKeyRow } from '../../repositories/apiKeyRepository.js';
import type { SecretCipher } from '../../security/cipher.js';
import { randomToken, sha256Hex } from '../../security/secrets.js';
import type { ApiKeyPrincipal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';

export interface ApiKeyServiceDeps {
  keys: ApiKeyRepository;
  cipher: SecretCipher;
  clock: Clock;
  /** Counts unknown keys per client (a wrong `ApiKey` header is a guess like a wrong password). */
  limiter: SecretAttemptLimiter;
  /** Whether a path can be a key's basic_path (services/treeFolders.ts). Absent: not checked. */
  basePathState?: (path: string) => Promise<'ok' | 'no_mount' | 'not_a_folder'>;
}

const DAY_MS = 24 * 3600 * 1000;
/** last_used is written at most this often per key, so a busy key does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60 * 1000;

function maskKey(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 4)}${'*'.repeat(8)}${key.slice(-4)}`;
}

/** The principal a key row stands for (whether it may be used now is the caller's check). */
export function keyPrincipal(row: ApiKeyRow): ApiKeyPrincipal {
  return {
    type: 'apikey',
    keyId: row.id,
    name: row.name,
    permissions: row.permissions,
    basicPath: row.basic_path,
    isGuest: row.is_guest ? 1 : 0,
    role: row.role,
    expiresAt: row.expires_at,
  };
}

/** A key that was updated (`row`: as it is now) or deleted (no `row`). */
export interface ApiKeyChange {
  id: string;
  row?: ApiKeyRow;
}

export class ApiKeyService {
  private readonly changeListeners = new Set<(change: ApiKeyChange) => void | Promise<void>>();

  constructor(private readonly deps: ApiKeyServiceDeps) {}

  /**
   * Called after a key is updated or deleted (so WebDAV forgets the credentials it verified and drops the locks
   * of a key that may no longer write); the change answers once every listener finished.
   */
  onChange(listener: (change: ApiKeyChange) => void | Promise<void>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private async changed(change: ApiKeyChange): Promise<void> {
    await Promise.all([...this.changeListeners].map(async (listener) => listener(change)));
  }

  private toView(row: ApiKeyRow): ApiKeyView {
    let key: string;
    try {
      key = this.deps.cipher.decrypt(row.key_encrypted);
    } catch {
      // Encrypted under another ENCRYPTION_KEY (e.g. restored elsewhere): the key still works, it just cannot be shown.
      key = '';
    }
    return {
      id: row.id,
      name: row.name,
      key,
      key_masked: key ? maskKey(key) : `${row.key_prefix}********`,
      permissions: row.permissions,
      role: row.role,
      basic_path: row.basic_path,
      is_guest: row.is_guest ? 1 : 0,
      enabled: row.enabled === 1,
      expires_at: row.expires_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
      last_used: row.last_used,
    };
  }

  private resolveExpiry(input: { expires_at?: string | null; expires_in_days?: number }): string | null | undefined {
    if (input.expires_in_days !== undefined && input.expires_at !== undefined) {
      throw AppError.validation('give either expires_at or expires_in_days, not both', [
        { path: 'expires_in_days', message: 'conflicts with expires_at' },
      ]);
    }
    const now = this.deps.clock.now().getTime();
    if (input.expires_in_days !== undefined) return new Date(now + input.expires_in_days * DAY_MS).toISOString();
    if (input.expires_at === undefined || input.expires_at === null) return input.expires_at;
    const at = new Date(input.expires_at);
    if (at.getTime() <= now) {
      throw AppError.validation('expires_at must be in the future', [
        { path: 'expires_at', message: 'must be in the future' },
      ]);
    }
    return at.toISOString();
  }

  private async requireRow(id: string): Promise<ApiKeyRow> {
    const row = isWellFormedId(id) ? await this.deps.keys.findById(id) : undefined;
    if (!row) throw AppError.notFound(`API key ${JSON.stringify(id)} not found`);
    return row;
  }

  private async assertNameFree(name: string, exceptId?: string): Promise<void> {
    if (await this.deps.keys.nameTaken(name, exceptId))
      throw AppError.conflict(`an API key named "${name}" already exists`);
  }

  /**
   * 400 naming basic_path when no mount holds it (nothing can ever be there: a key confined to it sees an empty
   * tree with no hint why; the usual cause is a typo such as `/team` for `/local/team`) or when it is a file.
   * A folder inside a mount that does not exist yet is allowed: the key's first upload (or the admin) makes it,
   * and on S3 an empty folder does not exist at all. Checked only when basic_path is set or changed, so a key
   * whose mount was removed later can still be renamed or disabled.
   */
  private async assertBasicPathExists(path: string): Promise<void> {
    if (path === '/' || !this.deps.basePathState) return;
    const state = await this.deps.basePathState(path);
    if (state === 'ok') return;
    const message =
      state === 'no_mount'
        ? `basic_path ${path} is not in the mount tree: no mount holds it`
        : `basic_path ${path} is a file, not a folder`;
    throw new AppError('VALIDATION', message, { data: { fields: [{ path: 'basic_path', message }], reason: state } });
  }

  async list(): Promise<ApiKeyView[]> {
    return (await this.deps.keys.list()).map((row) => this.toView(row));
  }

  async create(input: CreateApiKey): Promise<ApiKeyView> {
    const { keys, cipher, clock } = this.deps;
    await this.assertNameFree(input.name);
    await this.assertBasicPathExists(input.basic_path);
    const key = input.custom_key ?? `cn_${randomToken(24)}`;
    const keyHash = sha256Hex(key);
    if (await keys.findByHash(keyHash))
      throw AppError.conflict('this key is already in use, choose another custom key');
    const now = isoNow(clock);
    const row: ApiKeyRow = {
      id: newId(),
      name: input.name,
      key_hash: keyHash,
      key_encrypted: cipher.encrypt(key),
      key_prefix: key.slice(0, 4),
      permissions: input.permissions,
      role: input.role,
      basic_path: input.basic_path,
      is_guest: input.is_guest,
      enabled: input.enabled ? 1 : 0,
      expires_at: this.resolveExpiry(input) ?? null,
      created_at: now,
      updated_at: now,
      last_used: null,
    };
    await keys.insert(row);
    return this.toView(row);
  }

  async update(id: string, input: UpdateApiKey): Promise<ApiKeyView> {
    const row = await this.requireRow(id);
    if (input.name !== undefined && input.name !== row.name) await this.assertNameFree(input.name, id);
    if (input.basic_path !== undefined && input.basic_path !== row.basic_path) {
      await this.assertBasicPathExists(input.basic_path);
    }
    const expiresAt = this.resolveExpiry(input);
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.permissions !== undefined && { permissions: input.permissions }),
      ...(input.role !== undefined && { role: input.role }),
      ...(input.basic_path !== undefined && { basic_path: input.basic_path }),
      ...(input.is_guest !== undefined && { is_guest: input.is_guest }),
      ...(input.enabled !== undefined && { enabled: input.enabled ? 1 : 0 }),
      ...(expiresAt !== undefined && { expires_at: expiresAt }),
      updated_at: isoNow(this.deps.clock),
    };
    await this.deps.keys.update(id, changes);
    const updated = { ...row, ...changes };
    await this.changed({ id, row: updated });
    return this.toView(updated);
  }

  async remove(id: string): Promise<void> {
    await this.requireRow(id);
    await this.deps.keys.delete(id);
    await this.changed({ id });
  }

  /**
   * Checks a key presented by `client`; throws 401 with the reason when it cannot be used, 429 when the
   * client sent too many unknown keys (a disabled or expired key is a known one: it is not a guess).
   */
  async verify(key: string, client: string): Promise<ApiKeyPrincipal> {
    const row = await this.deps.limiter.attempt({ kind: 'api_key', client, target: '*' }, async () =>
      key ? this.deps.keys.findByHash(sha256Hex(key)) : undefined,
    );
    if (!row) throw AppError.unauthorized('invalid API key');
    return this.usable(row);
  }

  /** The key's row when it exists (no limiter: the caller counts the attempt, e.g. WebDAV Basic). */
  async findKey(key: string): Promise<ApiKeyRow | undefined> {
    return key ? this.deps.keys.findByHash(sha256Hex(key)) : undefined;
  }

  /** The key with this id as a principal, undefined when it is gone, disabled or expired (resumed tasks). */
  async principalById(id: string): Promise<ApiKeyPrincipal | undefined> {
    const row = await this.deps.keys.findById(id);
    return row ? this.usable(row).catch(() => undefined) : undefined;
  }

  /** The principal of a key row; 401 when it is disabled or expired. */
  async usable(row: ApiKeyRow): Promise<ApiKeyPrincipal> {
    if (row.enabled !== 1) throw AppError.unauthorized('this API key is disabled');
    const now = this.deps.clock.now();
    if (row.expires_at !== null && row.expires_at <= now.toISOString())
      throw AppError.unauthorized('this API key has expired');
    if (row.last_used === null || now.getTime() - Date.parse(row.last_used) >= LAST_USED_RESOLUTION_MS) {
      await this.deps.keys.touchLastUsed(row.id, now.toISOString());
    }
    return keyPrincipal(row);
  }

  describe(principal: ApiKeyPrincipal): ApiKeyTestResult {
    return {
      name: principal.name,
      basic_path: principal.basicPath,
      permissions: principal.permissions,
      key_info: {
        id: principal.keyId,
        name: principal.name,
        basic_path: principal.basicPath,
        is_guest: principal.isGuest,
        role: principal.role,
        expires_at: principal.expiresAt,
      },
    };
  }
}
