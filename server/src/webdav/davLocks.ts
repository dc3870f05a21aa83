import { randomUUID } from 'node:crypto';
import { isPathWithin, parentVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type { DavLockRow, DavRepository } from '../repositories/davRepository.js';
import { creatorId, keyCreatorId, type Principal } from '../auth/principal.js';
import type { DavLock } from './davTypes.js';

/**
 * Longest lock the server grants (a client asking for Infinite gets this). A client that needs longer refreshes
 * it (LOCK with its token and no body); a forgotten lock frees its files within the hour on its own.
 */
export const MAX_LOCK_SECONDS = 3600;
export const DEFAULT_LOCK_SECONDS = 3600;

/** Which locks a write must hold the token of. */
export interface LockScope {
  /** The write changes the members of the parent folder (create, delete, move away): its depth-0 lock counts. */
  membership?: boolean;
  /** The write changes everything below the path (delete, move, overwrite of a folder). */
  tree?: boolean;
}

function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  let dir = path;
  while (dir !== '/') {
    dir = parentVirtualPath(dir);
    out.push(dir);
  }
  return out;
}

function toLock(row: DavLockRow): DavLock {
  return {
    token: row.token,
    root: row.path,
    depth: row.depth === '0' ? '0' : 'infinity',
    scope: row.scope === 'shared' ? 'shared' : 'exclusive',
    owner: row.owner,
    timeoutSeconds: row.timeout_seconds,
  };
}

/** Whether `lock` covers `path` (its root, or below it with depth infinity). */
export function covers(lock: DavLock, path: string): boolean {
  return lock.root === path || (lock.depth === 'infinity' && isPathWithin(path, lock.root));
}

/** A lock's id in the admin API: its token without the `urn:uuid:` prefix. */
export function lockIdOf(token: string): string {
  return token.startsWith('urn:uuid:') ? token.slice('urn:uuid:'.length) : token;
}

/** WebDAV locks, kept in the database (dav_locks) so they hold across restarts and instances. */
export class DavLocks {
  constructor(private readonly deps: { repo: DavRepository; clock: Clock }) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Unexpired locks on `path` and its ancestors (any depth), plus (with `below`) every lock inside it. */
  async around(path: string, below = false): Promise<DavLock[]> {
    const rows = await this.deps.repo.locksAround(path, ancestorsOf(path), this.now(), below);
    return rows.map(toLock);
  }

  /** The locks that apply to `path` (its own and inherited ones). */
  async covering(path: string): Promise<DavLock[]> {
    return (await this.around(path)).filter((l) => covers(l, path));
  }

  /**
   * 423 unless the request submitted (in its If header) the token of every lock the write touches, each taken
   * by the same caller.
   */
  async assertCanWrite(
    principal: Principal,
    path: string,
    submitted: Set<string>,
    scope: LockScope = {},
  ): Promise<void> {
    const parent = path === '/' ? undefined : parentVirtualPath(path);
    const locks = await this.around(path, scope.tree === true);
    const me = creatorId(principal);
    const rows = await Promise.all(
      locks
        .filter(
          (l) =>
            covers(l, path) ||
            (scope.tree === true && isPathWithin(l.root, path)) ||
            (scope.membership === true && l.root === parent),
        )
        .map(async (l) => ({ lock: l, row: await this.deps.repo.lockByToken(l.token, this.now()) })),
    );
    for (const { lock, row } of rows) {
      if (!submitted.has(lock.token) || (row && row.principal !== me)) {
        throw new AppError('LOCKED', `${lock.root} is locked: send its lock token in an If header`);
      }
    }
  }

  /**
   * 423 when a write made outside WebDAV (the fs API, tasks: callers that cannot send lock tokens) touches a
   * lock: the same locks `assertCanWrite` counts, none of whose tokens was submitted. The holder unlocks it,
   * it expires (at most MAX_LOCK_SECONDS after its last refresh), or the admin breaks it.
   */
  async assertUnlocked(path: string, scope: LockScope = {}): Promise<void> {
    const parent = path === '/' ? undefined : parentVirtualPath(path);
    const lock = (await this.around(path, scope.tree === true)).find(
      (l) =>
        covers(l, path) ||
        (scope.tree === true && isPathWithin(l.root, path)) ||
        (scope.membership === true && l.root === parent),
    );
    if (!lock) return;
    const row = await this.deps.repo.lockByToken(lock.token, this.now());
    const until = row?.expires_at;
    throw new AppError(
      'LOCKED',
      `${lock.root} is locked over WebDAV${until ? ` until ${until}` : ''}: ` +
        'its holder must unlock it, or the admin can break the lock in the WebDAV settings',
      { data: { path: lock.root, ...(until ? { expires_at: until } : {}) } },
    );
  }

  /** Every lock held now (the admin's list). */
  async list(): Promise<DavLockRow[]> {
    return this.deps.repo.listLocks(this.now());
  }

  /** The admin breaks a lock by its id (`lockIdOf`); 404 when no such lock is held. */
  async breakLock(id: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw AppError.notFound(`no lock ${JSON.stringify(id)} is held`);
    if ((await this.deps.repo.deleteLock(`urn:uuid:${id.toLowerCase()}`)) === 0) {
      throw AppError.notFound(`no lock ${JSON.stringify(id)} is held`);
    }
  }

  /** Drops every lock a key took (it was disabled, deleted or lost its write permission). */
  async dropHeldByKey(keyId: string): Promise<number> {
    return this.deps.repo.deleteLocksOf(keyCreatorId(keyId));
  }

  /** Takes a new lock; 423 when it conflicts with one held (exclusive against anything, shared against exclusive). */
  async lock(
    principal: Principal,
    path: string,
    request: { depth: '0' | 'infinity'; scope: 'exclusive' | 'shared'; owner: string; timeoutSeconds: number },
  ): Promise<DavLock> {
    const now = this.deps.clock.now();
    const row: DavLockRow = {
      token: `urn:uuid:${randomUUID()}`,
      path,
      depth: request.depth,
      scope: request.scope,
      owner: request.owner,
      principal: creatorId(principal),
      timeout_seconds: request.timeoutSeconds,
      expires_at: new Date(now.getTime() + request.timeoutSeconds * 1000).toISOString(),
      created_at: now.toISOString(),
    };
    // Check and insert in one step no other instance can run beside (two clients never both get it).
    await this.deps.repo.exclusively(now.toISOString(), async (repo) => {
      const rows = await repo.locksAround(path, ancestorsOf(path), now.toISOString(), request.depth === 'infinity');
      const conflicts = rows
        .map(toLock)
        .filter((l) => covers(l, path) || (request.depth === 'infinity' && isPathWithin(l.root, path)));
      if (conflicts.some((l) => l.scope === 'exclusive' || request.scope === 'exclusive')) {
        throw new AppError('LOCKED', `${path} is already locked`);
      }
      await repo.insertLock(row);
    });
    return toLock(row);
  }

  /** Refreshes the lock among `tokens` that covers `path`; 412 when none does. */
  async refresh(principal: Principal, path: string, tokens: Set<string>, timeoutSeconds: number): Promise<DavLock> {
    const lock = (await this.covering(path)).find((l) => tokens.has(l.token));
    if (!lock) throw new AppError('PRECONDITION_FAILED', 'no lock of this resource matches the If header');
    const row = await this.deps.repo.lockByToken(lock.token, this.now());
    if (row && row.principal !== creatorId(principal)) throw AppError.forbidden('this lock belongs to someone else');
    const expiresAt = new Date(this.deps.clock.now().getTime() + timeoutSeconds * 1000).toISOString();
    await this.deps.repo.refreshLock(lock.token, timeoutSeconds, expiresAt);
    return { ...lock, timeoutSeconds };
  }

  /** Releases a lock covering `path`; 409 when the token names none. The admin may release anyone's (breaks it). */
  async unlock(principal: Principal, path: string, token: string): Promise<void> {
    const lock = (await this.covering(path)).find((l) => l.token === token);
    if (!lock) throw AppError.conflict('the lock token does not name a lock of this resource');
    const row = await this.deps.repo.lockByToken(token, this.now());
    if (row && principal.type !== 'admin' && row.principal !== creatorId(principal)) {
      throw AppError.forbidden('this lock belongs to someone else');
    }
    await this.deps.repo.deleteLock(token);
  }

  /**
   * A COPY or MOVE replaced what was at `path`: the lock on the path itself stays (it locks the URL, as Apache's
   * mod_dav keeps it: the holder still writes with its token, others still get 423); locks on members of the
   * replaced tree go with them.
   */
  async replacedAt(path: string): Promise<void> {
    await this.deps.repo.removeLocksBelow(path, this.now());
  }

  /** Drops the locks of a removed or moved-away tree. */
  async dropTree(path: string): Promise<void> {
    await this.deps.repo.removeLocksTree(path, this.now());
  }
}
