import { hasMountAccess, type CreateMount, type MountList, type MountView, type UpdateMount } from '@clipnest/contract';
import type { Updateable } from 'kysely';
import type { MountsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newId } from '../../lib/ids.js';
import type { MountRepository, MountRow } from '../../repositories/mountRepository.js';
import { toMountRecord } from '../../vfs/mountTable.js';
import type { Vfs } from '../../vfs/vfs.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import { BUILTIN_NOT_MOUNTABLE, isBuiltin, type StorageConfigService } from './storageConfigService.js';

const flag = (value: boolean): number => (value ? 1 : 0);

/**
 * Mount points (spec §3, §5, §6): admins create, edit and delete them; key holders with a mount
 * permission list the active ones their basic_path reaches. Nested mounts are allowed (longest prefix
 * wins in the tree). Every change tells the tree, which reloads its mount table and drops the listings.
 */
export class MountService {
  constructor(
    private readonly deps: {
      mounts: MountRepository;
      storageConfigs: Pick<StorageConfigService, 'requireRow'>;
      vfs: Vfs;
      clock: Clock;
    },
  ) {}

  toView(row: MountRow): MountView {
    return toMountRecord(row);
  }

  async list(principal: Principal): Promise<MountList> {
    if (principal.type === 'apikey' && !hasMountAccess(principal.permissions)) {
      throw AppError.forbidden('this API key has no mount permission');
    }
    const items: MountView[] = await this.deps.vfs.mounts(principal);
    return { items, total: items.length };
  }

  async get(id: string): Promise<MountView> {
    return this.toView(await this.requireRow(id));
  }

  private async requireRow(id: string): Promise<MountRow> {
    const row = isWellFormedId(id) ? await this.deps.mounts.findById(id) : undefined;
    if (!row) throw AppError.notFound(`mount ${JSON.stringify(id)} not found`);
    return row;
  }

  /** The storage config a mount names must exist; a storage_type sent along must be the config's. */
  private async checkStorage(configId: string, storageType: string | undefined): Promise<string> {
    let config;
    try {
      config = await this.deps.storageConfigs.requireRow(configId);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') {
        throw AppError.validation(`storage_config_id: storage config ${JSON.stringify(configId)} does not exist`, [
          { path: 'storage_config_id', message: 'no such storage config' },
        ]);
      }
      throw error;
    }
    if (isBuiltin(config)) {
      throw AppError.validation(`storage_config_id: ${BUILTIN_NOT_MOUNTABLE}`, [
        { path: 'storage_config_id', message: 'the built-in share storage cannot be mounted' },
      ]);
    }
    if (storageType !== undefined && storageType !== config.storage_type) {
      throw AppError.validation(
        `storage_type: the storage config is of type ${config.storage_type}, not ${storageType}`,
        [{ path: 'storage_type', message: `must be ${config.storage_type}` }],
      );
    }
    return config.storage_type;
  }

  private async assertPathFree(path: string, exceptId?: string): Promise<void> {
    if (await this.deps.mounts.pathTaken(path, exceptId)) {
      throw new AppError('CONFLICT', `path: a mount already uses ${path}`, {
        data: { fields: [{ path: 'path', message: 'already used by another mount' }] },
      });
    }
  }

  async create(principal: Principal, input: CreateMount): Promise<MountView> {
    const storageType = await this.checkStorage(input.storage_config_id, input.storage_type);
    await this.assertPathFree(input.path);
    const now = isoNow(this.deps.clock);
    const row: MountRow = {
      id: newId(),
      name: input.name,
      path: input.path,
      storage_type: storageType,
      storage_config_id: input.storage_config_id,
      remark: input.remark,
      sort_order: input.sort_order,
      cache_ttl: input.cache_ttl,
      is_active: flag(input.is_active),
      web_proxy: flag(input.web_proxy),
      enable_sign: flag(input.enable_sign),
      sign_expires: input.sign_expires,
      webdav_policy: input.webdav_policy,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
    };
    await this.deps.mounts.insert(row);
    this.deps.vfs.mountsChanged(row.id);
    return this.toView(row);
  }

  async update(id: string, input: UpdateMount): Promise<MountView> {
    const row = await this.requireRow(id);
    const changes: Updateable<MountsTable> = {};
    if (input.storage_config_id !== undefined || input.storage_type !== undefined) {
      const configId = input.storage_config_id ?? row.storage_config_id;
      changes.storage_type = await this.checkStorage(configId, input.storage_type);
      changes.storage_config_id = configId;
    }
    if (input.path !== undefined && input.path !== row.path) {
      await this.assertPathFree(input.path, row.id);
      changes.path = input.path;
    }
    if (input.name !== undefined) changes.name = input.name;
    if (input.remark !== undefined) changes.remark = input.remark;
    if (input.sort_order !== undefined) changes.sort_order = input.sort_order;
    if (input.cache_ttl !== undefined) changes.cache_ttl = input.cache_ttl;
    if (input.is_active !== undefined) changes.is_active = flag(input.is_active);
    if (input.web_proxy !== undefined) changes.web_proxy = flag(input.web_proxy);
    if (input.enable_sign !== undefined) changes.enable_sign = flag(input.enable_sign);
    if (input.sign_expires !== undefined) changes.sign_expires = input.sign_expires;
    if (input.webdav_policy !== undefined) changes.webdav_policy = input.webdav_policy;
    changes.updated_at = isoNow(this.deps.clock);
    await this.deps.mounts.update(row.id, changes);
    this.deps.vfs.mountsChanged(row.id);
    return this.get(row.id);
  }

  /** Removes the mount point; the storage and its files are not touched. */
  async remove(id: string): Promise<void> {
    const row = await this.requireRow(id);
    await this.deps.mounts.delete(row.id);
    this.deps.vfs.mountsChanged(row.id);
  }
}
