// PUT, DELETE, MKCOL and PROPPATCH: the methods that change one resource.
import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { nodeRequestBody } from '../../http/requestBody.js';
import { ocIdOf, proppatchReply } from '../davReplies.js';
import type { DavRequest } from '../davRequest.js';
import { DAV, child, elements, serialize } from '../xml.js';
import type { DavHandler } from './types.js';

/** Nextcloud-style clients send the file's modification time as Unix seconds. */
export function ocMtimeOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const seconds = /^\s*\d{1,12}(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(seconds)) throw AppError.validation('X-OC-Mtime must be Unix seconds');
  return new Date(Math.floor(seconds) * 1000);
}

/** What Nextcloud-style clients read from a PUT or MKCOL answer instead of asking again. */
function ocHeaders(req: DavRequest, etag: string | undefined): void {
  req.c.header('OC-FileId', ocIdOf(req.path));
  if (etag) req.c.header('OC-ETag', etag);
}

export const put: DavHandler = async (req, { webdav }) => {
  const length = req.header('content-length');
  const size = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
  const contentType = req.header('content-type');
  const mtime = ocMtimeOf(req.header('x-oc-mtime'));
  // The socket's own Node stream: no Web stream in between (flat memory, fewer copies).
  const result = await webdav.put(req.principal, req.path, nodeRequestBody(req.c) ?? Readable.from([]), {
    ...(size !== undefined ? { size } : {}),
    ...(contentType ? { contentType } : {}),
    ...(mtime ? { mtime } : {}),
    signal: req.c.req.raw.signal,
    ifLists: req.ifLists(),
  });
  if (result.etag) req.c.header('ETag', result.etag);
  if (mtime) req.c.header('X-OC-MTime', 'accepted');
  if (req.view.oc) ocHeaders(req, result.etag);
  return req.empty(result.created ? 201 : 204);
};

export const remove: DavHandler = async (req, { webdav }) => {
  await webdav.delete(req.principal, req.path, { ifLists: req.ifLists() });
  return req.empty(204);
};

export const mkcol: DavHandler = async (req, { webdav }) => {
  const length = req.header('content-length');
  if ((length !== undefined && length !== '0') || req.header('transfer-encoding')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'MKCOL with a body is not supported');
  }
  await webdav.mkcol(req.principal, req.path, { ifLists: req.ifLists() });
  if (req.view.oc) ocHeaders(req, await webdav.currentEtag(req.principal, req.path));
  return req.empty(201);
};

export const proppatch: DavHandler = async (req, { webdav }) => {
  // Who may write where is settled before a byte of the body is read (a read-only key is refused at once).
  await webdav.proppatchTarget(req.principal, req.path);
  const body = await req.xmlBody();
  if (!body || body.ns !== DAV || body.local !== 'propertyupdate') {
    throw AppError.validation('expected a DAV:propertyupdate body');
  }
  const changes = elements(body, DAV).flatMap((op) => {
    if (op.local !== 'set' && op.local !== 'remove') return [];
    const prop = child(op, DAV, 'prop');
    return prop
      ? elements(prop).map((e) =>
          op.local === 'set'
            ? { op: 'set' as const, ns: e.ns, name: e.local, xml: serialize(e) }
            : { op: 'remove' as const, ns: e.ns, name: e.local },
        )
      : [];
  });
  const results = await webdav.proppatch(req.principal, req.path, changes, { ifLists: req.ifLists() });
  const target = await webdav.find(req.principal, req.path);
  return req.xml(proppatchReply(target?.path ?? req.path, target?.isDir ?? false, results, req.view.base), 207);
};
