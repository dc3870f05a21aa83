// WebDAV's conditions on a write (RFC 4918 10.4, 7): the If header's lists of ETags and lock tokens, and the
// locks a write touches.
import { AppError } from '../errors.js';
import type { Vfs } from '../vfs/vfs.js';
import type { Principal } from '../auth/principal.js';
import type { DavLocks, LockScope } from './davLocks.js';
import type { DavLock, DavResource, IfList } from './davTypes.js';

export interface WriteConditions {
  ifLists?: IfList[];
}

/** The lock tokens an If header offers (its positive conditions). */
export function tokensOf(ifLists: IfList[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of ifLists ?? []) for (const c of list.conditions) if (c.token && !c.not) out.add(c.token);
  return out;
}

function unquote(etag: string): string {
  return etag.replace(/^W\//, '');
}

export class DavConditions {
  constructor(
    private readonly deps: {
      vfs: Pick<Vfs, 'normalise'>;
      locks: Pick<DavLocks, 'assertCanWrite' | 'covering'>;
      find: (principal: Principal, input: string) => Promise<DavResource | undefined>;
    },
  ) {}

  /** 412 unless one list of the If header holds; 423 unless every lock the write touches had its token sent. */
  async preconditions(
    principal: Principal,
    path: string,
    conditions: WriteConditions,
    scope: LockScope,
  ): Promise<void> {
    await this.assertIf(principal, path, conditions.ifLists);
    await this.deps.locks.assertCanWrite(principal, path, tokensOf(conditions.ifLists), scope);
  }

  /** 412 unless one list of the If header (when there is one) holds. */
  async assertIf(principal: Principal, path: string, ifLists: IfList[] | undefined): Promise<void> {
    if (ifLists && ifLists.length > 0 && !(await this.ifHolds(principal, path, ifLists))) {
      throw new AppError('PRECONDITION_FAILED', 'the If header does not match the resource');
    }
  }

  private async ifHolds(principal: Principal, path: string, lists: IfList[]): Promise<boolean> {
    for (const list of lists) {
      const target = list.resource ?? path;
      let resource: DavResource | undefined;
      let locks: DavLock[] = [];
      try {
        resource = await this.deps.find(principal, target);
        locks = await this.deps.locks.covering(this.deps.vfs.normalise(target));
      } catch {
        resource = undefined;
      }
      const holds = list.conditions.every((c) => {
        const match = c.token
          ? locks.some((l) => l.token === c.token)
          : c.etag !== undefined && resource?.etag !== undefined && unquote(resource.etag) === unquote(c.etag);
        return c.not ? !match : match;
      });
      if (holds) return true;
    }
    return false;
  }
}
