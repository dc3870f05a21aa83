import { getOrHead, propfind } from './read.js';
import { lock, unlock } from './locks.js';
import { copyOrMove } from './transfer.js';
import type { DavHandler } from './types.js';
import { mkcol, proppatch, put, remove } from './write.js';

export type { DavDeps, DavHandler } from './types.js';

/** One handler per WebDAV method (OPTIONS is answered before authentication, in davRoutes). */
export const davHandlers: Readonly<Record<string, DavHandler>> = {
  GET: getOrHead,
  HEAD: getOrHead,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  PUT: put,
  DELETE: remove,
  MKCOL: mkcol,
  COPY: copyOrMove,
  MOVE: copyOrMove,
  LOCK: lock,
  UNLOCK: unlock,
};
