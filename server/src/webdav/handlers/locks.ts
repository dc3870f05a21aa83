// LOCK (new or refreshed) and UNLOCK.
import { AppError } from '../../errors.js';
import { WebdavService } from '../webdavService.js';
import { lockReply } from '../davReplies.js';
import { DAV, child, serialize } from '../xml.js';
import type { DavHandler } from './types.js';

export const lock: DavHandler = async (req, { webdav }) => {
  const timeoutSeconds = WebdavService.timeoutOf(req.header('timeout'));
  webdav.assertMayWrite(req.principal);
  const body = await req.xmlBody();
  const ifLists = req.ifLists();
  if (!body) {
    if (!ifLists) throw AppError.validation('a LOCK refresh needs an If header with the lock token');
    const refreshed = await webdav.refreshLock(req.principal, req.path, ifLists, timeoutSeconds);
    return req.xml(lockReply(refreshed, req.view.base), 200);
  }
  if (body.ns !== DAV || body.local !== 'lockinfo') throw AppError.validation('expected a DAV:lockinfo body');
  const scopeEl = child(body, DAV, 'lockscope');
  if (!scopeEl || (!child(scopeEl, DAV, 'shared') && !child(scopeEl, DAV, 'exclusive'))) {
    throw AppError.validation('DAV:lockinfo needs a lockscope of exclusive or shared');
  }
  const ownerEl = child(body, DAV, 'owner');
  const depth = req.depth('infinity');
  if (depth === '1') throw AppError.validation('Depth 1 is not allowed for LOCK');
  const { lock: granted, created } = await webdav.lock(req.principal, req.path, {
    depth: depth === '0' ? '0' : 'infinity',
    scope: child(scopeEl, DAV, 'shared') ? 'shared' : 'exclusive',
    owner: ownerEl ? serialize(ownerEl) : '',
    timeoutSeconds,
    ...(ifLists ? { ifLists } : {}),
  });
  req.c.header('Lock-Token', `<${granted.token}>`);
  return req.xml(lockReply(granted, req.view.base), created ? 201 : 200);
};

export const unlock: DavHandler = async (req, { webdav }) => {
  const token = /^\s*<([^>]+)>\s*$/.exec(req.header('lock-token') ?? '')?.[1];
  if (!token) throw AppError.validation('the Lock-Token header is required: <token>');
  await webdav.unlock(req.principal, req.path, token);
  return req.empty(204);
};
