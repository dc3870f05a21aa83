import type { WebdavService } from '../webdavService.js';
import type { DavRequest } from '../davRequest.js';

export interface DavDeps {
  webdav: WebdavService;
}

/** One WebDAV method: reads what it needs from the request, calls the service, shapes the answer. */
export type DavHandler = (req: DavRequest, deps: DavDeps) => Promise<Response>;
