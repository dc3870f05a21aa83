import type {
  CreateStorageConfig,
  ListPage,
  StorageConfigTestResult,
  StorageConfigView,
  StorageCorsProblem,
  StorageTestStep,
  StorageUsedScope,
  UpdateStorageConfig,
} from '@clipnest/contract';
import { BUILTIN_LOCAL_CONFIG_NAME, foreignOptionFields, STORAGE_TEST_STEPS } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newId } from '../../lib/ids.js';
import type { StorageConfigRepository, StorageConfigRow } from '../../repositories/storageConfigRepository.js';
import type { SecretCipher } from '../../security/cipher.js';
import type { StorageDriver } from '../../storage/types.js';
import { ftpView } from '../../storage/ftpStorageType.js';
import { BLANK_STORAGE_COLUMNS } from './storageConfigDefaults.js';
import { sftpView } from '../../storage/sftpStorageType.js';
import type { StorageRegistry } from '../../storage/storageRegistry.js';
import {
  pickOptions,
  providerOf,
  rcloneSummary,
  secretColumns,
  secretView,
  type ConfigColumns,
} from '../../storage/storageTypes.js';

export const LOCAL_CONFIG_NAME = BUILTIN_LOCAL_CONFIG_NAME;

export const BUILTIN_NOT_MOUNTABLE =
  'the built-in local storage holds the file shares and cannot be mounted: create a local storage config with a folder of its own and mount that';

/** The built-in local config: type local with no root of its own (DATA_DIR/storage/local). */
export function isBuiltin(row: Pick<StorageConfigRow, 'storage_type' | 'root_path'>): boolean {
  return row.storage_type === 'local' && row.root_path === '';
}

/** The bytes a storage holds, and what that figure counts (StorageConfigView.used_scope). */
export interface StorageUsed {
  bytes: number;
  scope: StorageUsedScope;
}

/** A failed CORS probe: why, for the UI's advice. */
class CorsBlocked extends Error {
  constructor(
    readonly problem: StorageCorsProblem,
    message: string,
  ) {
    super(message);
  }
}

/** `http(s)://host[:port]` of a header or URL, or undefined when it is none. */
export function originOf(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

export class StorageConfigService {
  constructor(
    private readonly deps: {
      configs: StorageConfigRepository;
      registry: StorageRegistry;
      cipher: SecretCipher;
      clock: Clock;
      /** Origin the CORS probe claims when the request names none (PUBLIC_URL). */
      corsOrigin?: string;
      /**
       * Bytes a mounted storage holds, found by walking it (StorageUsage: kept a minute, raised by writes
       * through the tree). Without it, every config counts its file shares only.
       */
      storedBytes?: (configId: string) => Promise<number>;
    },
  ) {
    deps.registry.onRemember((id, patch) => void this.remember(id, patch));
  }

  /** Stores what a running driver learned (storageTypes.ts `remember`); a failure only loses the lesson. */
  private async remember(
    id: string,
    patch: (row: Readonly<StorageConfigRow>) => Parameters<StorageConfigRepository['update']>[1] | undefined,
  ): Promise<void> {
    try {
      const row = await this.deps.configs.findById(id);
      const changes = row ? patch(row) : undefined;
      if (changes) await this.deps.configs.update(id, changes);
    } catch {
      // The config was deleted meanwhile, or the database is away: the driver learns it again next time.
    }
  }

  /** Creates the built-in local config at start when missing, and makes sure some config is the default. */
  async ensureBuiltin(): Promise<StorageConfigRow> {
    let local = await this.deps.configs.findBuiltinLocal();
    const now = isoNow(this.deps.clock);
    if (!local) {
      const hasDefault = (await this.deps.configs.findDefault()) !== undefined;
      local = {
        id: newId(),
        name: LOCAL_CONFIG_NAME,
        storage_type: 'local',
        ...BLANK_STORAGE_COLUMNS,
        is_default: hasDefault ? 0 : 1,
        created_at: now,
        updated_at: now,
      };
      await this.deps.configs.insert(local);
    } else if (!(await this.deps.configs.findDefault())) {
      await this.deps.configs.setDefault(local.id, now);
    }
    return local;
  }

  toView(row: StorageConfigRow, used: StorageUsed = { bytes: 0, scope: 'shares' }): StorageConfigView {
    const local = row.storage_type === 'local';
    const webdav = row.storage_type === 'webdav';
    const ftp = row.storage_type === 'ftp';
    const sftp = row.storage_type === 'sftp';
    const rclone = row.storage_type === 'rclone';
    const secret = secretView(row, this.deps.cipher);
    return {
      id: row.id,
      name: row.name,
      storage_type: local ? 'local' : webdav ? 'webdav' : ftp ? 'ftp' : sftp ? 'sftp' : rclone ? 'rclone' : 's3',
      provider: providerOf(row.provider),
      endpoint: row.endpoint,
      bucket: row.bucket,
      region: row.region,
      access_key_id: row.access_key_id,
      // A password is never hinted at, not even its last characters.
      ...(webdav || ftp || rclone ? { ...secret, secret_access_key_masked: secret.has_secret ? '••••' : '' } : secret),
      ...(rclone ? rcloneSummary(row.options_json) : {}),
      ...(webdav
        ? { endpoint_url: row.endpoint, username: row.access_key_id, tls_insecure: row.path_style === 1 }
        : {}),
      ...(ftp ? ftpView(row) : {}),
      ...(sftp ? sftpView(row, this.deps.cipher) : {}),
      root_path: local ? row.root_path || this.deps.registry.localRoot : '',
      path_style: row.path_style === 1,
      default_folder: row.default_folder,
      custom_host: row.custom_host,
      signature_expires_in: row.signature_expires_in,
      total_capacity: row.total_capacity,
      used_bytes: used.bytes,
      used_scope: used.scope,
      is_default: row.is_default === 1,
      is_builtin: isBuiltin(row),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** `full` false (key holders picking an upload target): names and capacity only, no connection details. */
  async list(page: number, limit: number, full = true): Promise<ListPage<StorageConfigView>> {
    const offset = (page - 1) * limit;
    const [rows, total] = await Promise.all([this.deps.configs.list(limit, offset), this.deps.configs.count()]);
    const used = await this.usage(rows);
    const items = rows.map((r) => {
      const view = this.toView(r, used.get(r.id));
      if (full) return view;
      return {
        ...view,
        endpoint: '',
        bucket: '',
        region: '',
        access_key_id: '',
        secret_access_key_masked: '',
        has_secret: false,
        root_path: '',
        default_folder: '',
        custom_host: '',
        ...(view.storage_type === 'webdav' ? { endpoint_url: '', username: '' } : {}),
        ...(view.storage_type === 'ftp' ? { host: '', username: '' } : {}),
        ...(view.storage_type === 'sftp'
          ? {
              host: '',
              username: '',
              root_folder: '',
              host_key_sha256: '',
              has_password: false,
              has_private_key: false,
            }
          : {}),
        ...(view.storage_type === 'rclone' ? { rclone_remote: '', rclone_type: '' } : {}),
      };
    });
    return { items, total, limit, offset, page };
  }

  /** Every config (for background work such as the temp sweep). */
  async allRows(): Promise<StorageConfigRow[]> {
    const rows: StorageConfigRow[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await this.deps.configs.list(200, offset);
      rows.push(...page);
      if (page.length < 200) return rows;
    }
  }

  async requireRow(id: string): Promise<StorageConfigRow> {
    const row = isWellFormedId(id) ? await this.deps.configs.findById(id) : undefined;
    if (!row) throw AppError.notFound(`storage config ${JSON.stringify(id)} not found`);
    return row;
  }

  async get(id: string): Promise<StorageConfigView> {
    const row = await this.requireRow(id);
    return this.toView(row, (await this.usage([row])).get(row.id));
  }

  /** The config an upload goes to: the one named, else the default (else the built-in local one). */
  async resolveForUpload(id: string | undefined): Promise<StorageConfigRow> {
    if (id) return this.requireRow(id);
    const row = (await this.deps.configs.findDefault()) ?? (await this.ensureBuiltin());
    return row;
  }

  /**
   * The one figure of what a storage holds: the capacity bar, the WebDAV quota (storageSpace.ts), the limit
   * on writes into mounts (writeLimits.ts) and the check before a share upload all use it. A mounted config
   * counts its whole storage: its file shares (their counter; their objects live in the share area, which
   * no listing shows) plus what the storage walk finds (written through mounts or from outside); an
   * unmounted one counts its file shares.
   */
  async usage(
    rows: Array<Pick<StorageConfigRow, 'id' | 'storage_type' | 'root_path'>>,
  ): Promise<Map<string, StorageUsed>> {
    const ids = rows.map((r) => r.id);
    const [shares, mounted] = await Promise.all([
      this.deps.configs.usedBytes(ids),
      this.deps.storedBytes ? this.deps.configs.mountedIds(ids) : Promise.resolve(new Set<string>()),
    ]);
    const out = new Map<string, StorageUsed>();
    await Promise.all(
      rows.map(async (row) => {
        const shareBytes = shares.get(row.id) ?? 0;
        const storedBytes = this.deps.storedBytes;
        if (storedBytes && mounted.has(row.id) && !isBuiltin(row)) {
          try {
            out.set(row.id, { bytes: shareBytes + (await storedBytes(row.id)), scope: 'storage' });
            return;
          } catch {
            // unreachable storage: its shares are what is known
          }
        }
        out.set(row.id, { bytes: shareBytes, scope: 'shares' });
      }),
    );
    return out;
  }

  async usedBytes(id: string): Promise<number> {
    const row = await this.requireRow(id);
    return (await this.usage([row])).get(id)?.bytes ?? 0;
  }

  driverOf(row: StorageConfigRow): StorageDriver {
    return this.deps.registry.driverFor(row);
  }

  /**
   * The driver a mount reads and writes through. The built-in local storage holds every file share
   * (password-protected ones too), so no mount may reach it: a mount row pointing at it (restored from a
   * backup, or made before this rule) fails with 403 rather than list the shares.
   */
  async mountDriverOf(id: string): Promise<StorageDriver> {
    const row = await this.requireRow(id);
    if (isBuiltin(row)) throw AppError.forbidden(BUILTIN_NOT_MOUNTABLE);
    return this.driverOf(row);
  }

  private async assertNameFree(name: string, exceptId?: string): Promise<void> {
    if (await this.deps.configs.nameTaken(name, exceptId)) {
      throw AppError.conflict(`a storage config named "${name}" already exists`);
    }
  }

  async create(input: CreateStorageConfig): Promise<StorageConfigView> {
    const def = this.deps.registry.typeOf(input.storage_type);
    await this.assertNameFree(input.name);
    const options = pickOptions(def, input);
    const columns = await def.columns(options, this.deps.registry.context);
    const now = isoNow(this.deps.clock);
    const row: StorageConfigRow = {
      id: newId(),
      name: input.name,
      storage_type: def.type,
      ...BLANK_STORAGE_COLUMNS,
      ...columns,
      ...secretColumns(def, input, this.deps.cipher),
      default_folder: input.default_folder,
      total_capacity: input.total_capacity,
      is_default: 0,
      created_at: now,
      updated_at: now,
    } as StorageConfigRow;
    await this.deps.configs.insert(row);
    if (input.is_default) await this.deps.configs.setDefault(row.id, now);
    return this.get(row.id);
  }

  async update(id: string, input: UpdateStorageConfig): Promise<StorageConfigView> {
    const row = await this.requireRow(id);
    const def = this.deps.registry.typeOf(row.storage_type);
    if (input.is_default === false && row.is_default === 1) {
      throw AppError.validation('make another config the default instead of unsetting this one', [
        { path: 'is_default', message: 'a default config is always needed' },
      ]);
    }
    const foreign = foreignOptionFields(def.type).filter((k) => {
      const value = (input as Record<string, unknown>)[k];
      return value !== undefined && value !== '';
    });
    if (foreign.length > 0) {
      const what = isBuiltin(row) ? 'the built-in local storage' : `${def.type} storage`;
      throw AppError.validation(
        `${what} has no ${foreign.join(', ')}`,
        foreign.map((path) => ({ path, message: `not used by ${def.type} storage` })),
      );
    }
    if (input.name !== undefined) await this.assertNameFree(input.name, row.id);
    if (input.root_path !== undefined && row.root_path !== '' && (await this.deps.configs.countFiles(row.id)) > 0) {
      throw new AppError('CONFLICT', 'file shares are stored under this root_path; remove them before moving it', {
        data: { fields: [{ path: 'root_path', message: 'in use by file shares' }] },
      });
    }
    const now = isoNow(this.deps.clock);
    const changes: ConfigColumns = {
      ...(await def.columns(pickOptions(def, input), this.deps.registry.context, row)),
      ...secretColumns(def, input, this.deps.cipher, row),
      updated_at: now,
    };
    if (input.name !== undefined) changes.name = input.name;
    if (input.total_capacity !== undefined) changes.total_capacity = input.total_capacity;
    if (input.default_folder !== undefined) changes.default_folder = input.default_folder;
    await this.deps.configs.update(row.id, changes);
    this.deps.registry.invalidate(row.id);
    if (input.is_default === true) await this.deps.configs.setDefault(row.id, now);
    return this.get(row.id);
  }

  async setDefault(id: string): Promise<StorageConfigView> {
    const row = await this.requireRow(id);
    await this.deps.configs.setDefault(row.id, isoNow(this.deps.clock));
    return this.get(row.id);
  }

  async remove(id: string): Promise<void> {
    const row = await this.requireRow(id);
    if (isBuiltin(row)) throw AppError.conflict('the built-in local storage cannot be deleted');
    const [files, mounts] = await Promise.all([
      this.deps.configs.countFiles(row.id),
      this.deps.configs.countMounts(row.id),
    ]);
    if (files > 0 || mounts > 0) {
      const mountPaths = mounts > 0 ? await this.deps.configs.mountPaths(row.id) : [];
      const mountText = `${mounts} mount(s) (${mountPaths.join(', ')}${mounts > mountPaths.length ? ', …' : ''})`;
      const parts = [files > 0 ? `${files} file share(s)` : '', mounts > 0 ? mountText : ''].filter(Boolean);
      throw new AppError('CONFLICT', `this storage config is used by ${parts.join(' and ')}; remove them first`, {
        data: { files, mounts, mount_paths: mountPaths },
      });
    }
    await this.deps.configs.delete(row.id);
    this.deps.registry.invalidate(row.id);
    if (row.is_default === 1) {
      const local = await this.ensureBuiltin();
      await this.deps.configs.setDefault(local.id, isoNow(this.deps.clock));
    }
  }

  /**
   * Reaches the storage, writes a probe file, reads it back, lists its folder and deletes it, timing each step
   * (STORAGE_TEST_STEPS). Never throws for a storage failure.
   *
   * `origin`: the Origin of the admin's request (the page they test from); `requestUrl`: the URL the request
   * came to, used for its origin when there is no Origin header and no PUBLIC_URL.
   */
  async test(id: string, origin?: string, requestUrl?: string): Promise<StorageConfigTestResult> {
    const row = await this.requireRow(id);
    let cors: StorageConfigTestResult['cors'];
    const driver = this.deps.registry.build(row);
    const started = performance.now();
    const folder = row.default_folder ? `${row.default_folder}/` : '';
    const probePath = `${folder}clipnest-probe-${newId()}.txt`;
    const payload = `clipnest storage probe ${isoNow(this.deps.clock)}`;
    const steps: StorageTestStep[] = [];
    const run = async (step: StorageTestStep['step'], fn: () => Promise<string>): Promise<boolean> => {
      const t0 = performance.now();
      try {
        const message = await fn();
        steps.push({ step, success: true, latency_ms: Math.round(performance.now() - t0), message });
        return true;
      } catch (error) {
        steps.push({
          step,
          success: false,
          latency_ms: Math.round(performance.now() - t0),
          message: errorMessage(error),
        });
        return false;
      }
    };
    try {
      // One round trip to the root's first entry: the address answers, the credentials are taken.
      const connected = await run('connect', async () => {
        const page = await driver.list('', { limit: 1 });
        return page.entries.length > 0 ? 'reached the storage root' : 'reached the storage root (empty)';
      });
      const wrote =
        connected &&
        (await run('write', async () => {
          const bytes = new TextEncoder().encode(payload);
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          });
          await driver.write(probePath, body, { contentType: 'text/plain', size: bytes.byteLength });
          return `wrote ${bytes.byteLength} bytes to ${probePath}`;
        }));
      if (wrote && driver.presign && row.storage_type !== 'local') {
        // Presigned browser uploads need the bucket's CORS to allow PUT from our origin and expose ETag.
        const presign = driver.presign.bind(driver);
        const t0 = performance.now();
        const claimed =
          originOf(origin) ?? originOf(this.deps.corsOrigin) ?? originOf(requestUrl) ?? 'http://localhost';
        try {
          const message = await this.corsProbe(presign, probePath, claimed);
          cors = { success: true, latency_ms: Math.round(performance.now() - t0), origin: claimed, message };
        } catch (error) {
          cors = {
            success: false,
            latency_ms: Math.round(performance.now() - t0),
            origin: claimed,
            problem: error instanceof CorsBlocked ? error.problem : 'unreachable',
            message: errorMessage(error),
          };
        }
      }
      if (wrote) {
        await run('read', async () => {
          const result = await driver.read(probePath);
          const text = await new Response(result.stream).text();
          if (text !== payload) throw new Error('the object read back differs from what was written');
          return `read ${text.length} bytes back`;
        });
        await run('list', async () => {
          const folderPath = row.default_folder;
          const probeName = probePath.slice(folder.length);
          let cursor: string | undefined;
          let listed = 0;
          for (let pages = 0; pages < 20; pages++) {
            const page = await driver.list(folderPath, cursor ? { cursor } : {});
            listed += page.entries.length;
            if (page.entries.some((e) => e.name === probeName)) {
              return `listed ${folderPath || '/'}: the probe file is there`;
            }
            cursor = page.cursor;
            if (!cursor) break;
          }
          throw new Error(`the probe file is missing from the listing of ${folderPath || '/'} (${listed} entries)`);
        });
        await run('delete', async () => {
          await driver.remove(probePath);
          return 'probe object deleted';
        });
      }
    } finally {
      await driver.close?.().catch(() => undefined);
    }
    const success = steps.length === STORAGE_TEST_STEPS.length && steps.every((s) => s.success);
    // What a successful test settles for good (the sftp host key seen, when none was pinned yet).
    const settled = success ? this.deps.registry.typeOf(row.storage_type).afterTest?.(driver, row) : undefined;
    if (settled) {
      await this.deps.configs.update(row.id, { ...settled, updated_at: isoNow(this.deps.clock) });
      this.deps.registry.invalidate(row.id);
    }
    return {
      success,
      steps,
      total_ms: Math.round(performance.now() - started),
      ...(cors ? { cors } : {}),
    };
  }

  /**
   * A browser's preflight for a presigned PUT, sent from the server with Origin: does the bucket allow
   * it, and does it expose ETag (needed to complete multipart uploads)? Throws a readable reason.
   */
  private async corsProbe(
    presign: NonNullable<StorageDriver['presign']>,
    probePath: string,
    origin: string,
  ): Promise<string> {
    const url = await presign(probePath, 'put', 300, { contentType: 'text/plain' });
    const blocked = (problem: StorageCorsProblem, why: string) =>
      new CorsBlocked(
        problem,
        `the bucket's CORS rules block browser uploads from ${origin}: ${why} (see docs/storage.md, CORS)`,
      );
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    const allowOrigin = response.headers.get('access-control-allow-origin');
    if (!response.ok || (allowOrigin !== '*' && allowOrigin !== origin)) {
      throw blocked('preflight', `the preflight answered ${response.status} without Access-Control-Allow-Origin`);
    }
    const methods = response.headers.get('access-control-allow-methods');
    if (methods && !/\bPUT\b/i.test(methods)) throw blocked('method', 'PUT is not an allowed method');
    const get = await fetch(await presign(probePath, 'get', 300), {
      headers: { Origin: origin },
      signal: AbortSignal.timeout(10_000),
    });
    await get.arrayBuffer().catch(() => undefined);
    const exposed = get.headers.get('access-control-expose-headers') ?? '';
    if (!/\betag\b/i.test(exposed)) {
      throw blocked('etag', 'ETag is not an exposed header, so multipart uploads cannot read part ETags');
    }
    return `browser uploads from ${origin} are allowed and ETag is exposed`;
  }
}
