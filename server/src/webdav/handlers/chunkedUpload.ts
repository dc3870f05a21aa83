// Nextcloud's chunked upload v2 under /remote.php/dav/uploads/<user>/<upload id>/…
import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { nodeRequestBody } from '../../http/requestBody.js';
import type { ChunkedUploads } from '../chunkedUploads.js';
import type { DavPropfindItem } from '../davTypes.js';
import { ocIdOf, propfindReply } from '../davReplies.js';
import { propRequestOf, type DavRequest } from '../davRequest.js';
import { nextcloudBaseOf } from '../nextcloudPaths.js';
import { ocMtimeOf } from './write.js';

/** `/remote.php/dav/uploads/<user>` as the client spelled it, else undefined. */
export function uploadsBaseOf(rawPath: string): string | undefined {
  return /^\/remote\.php\/dav\/uploads\/[^/]+/.exec(rawPath)?.[0];
}

/** One request under the uploads base; `req.path` is `/<id>` or `/<id>/<chunk>`. */
export async function chunkedUpload(req: DavRequest, uploads: ChunkedUploads): Promise<Response> {
  const [id, chunk, ...rest] = req.path.split('/').filter(Boolean);
  if (!id || rest.length > 0) throw AppError.notFound('not an upload: use /remote.php/dav/uploads/<user>/<upload id>/');
  switch (req.method) {
    case 'MKCOL':
      if (chunk) throw new AppError('METHOD_NOT_ALLOWED', 'chunks are PUT, not made with MKCOL');
      await uploads.start(req.principal, id);
      return req.empty(201);
    case 'PUT': {
      if (!chunk) throw new AppError('METHOD_NOT_ALLOWED', 'PUT the chunks inside the upload folder');
      const body = nodeRequestBody(req.c) ?? Readable.from([]);
      const created = await uploads.putChunk(req.principal, id, chunk, body, req.c.req.raw.signal);
      return req.empty(created ? 201 : 204);
    }
    case 'PROPFIND': {
      if (chunk) throw AppError.notFound('list the upload folder, not a chunk');
      const request = propRequestOf(await req.xmlBody());
      const { modified, chunks } = await uploads.list(req.principal, id);
      const items: DavPropfindItem[] = [
        { resource: { path: `/${id}`, name: id, isDir: true, size: 0, lastModified: modified }, dead: [], locks: [] },
      ];
      if (req.depth('1') !== '0') {
        for (const c of chunks) {
          const resource = {
            path: `/${id}/${c.name}`,
            name: c.name,
            isDir: false,
            size: c.size,
            lastModified: c.modified,
          };
          items.push({ resource, dead: [], locks: [] });
        }
      }
      return req.xml(propfindReply(items, request, req.view), 207);
    }
    case 'MOVE': {
      if (chunk !== '.file') throw AppError.validation('MOVE the upload’s .file onto the destination');
      const destination = req.header('destination');
      if (!destination) throw AppError.validation('the Destination header is required');
      const to = req.pathOfUrl(destination, nextcloudBaseOf);
      if (to === undefined) throw new AppError('BAD_GATEWAY', 'the destination is on another server');
      const length = req.header('oc-total-length');
      const mtime = ocMtimeOf(req.header('x-oc-mtime'));
      const result = await uploads.assemble(req.principal, id, to, {
        ...(length !== undefined && /^\d+$/.test(length) ? { totalLength: Number(length) } : {}),
        ...(mtime ? { mtime } : {}),
        ifLists: req.ifLists(),
        signal: req.c.req.raw.signal,
      });
      req.c.header('OC-FileId', ocIdOf(to));
      if (result.etag) {
        req.c.header('ETag', result.etag);
        req.c.header('OC-ETag', result.etag);
      }
      if (mtime) req.c.header('X-OC-MTime', 'accepted');
      return req.empty(result.created ? 201 : 204);
    }
    case 'DELETE':
      if (chunk) throw new AppError('METHOD_NOT_ALLOWED', 'delete the whole upload');
      await uploads.cancel(req.principal, id);
      return req.empty(204);
    default:
      throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not supported on uploads`);
  }
}
