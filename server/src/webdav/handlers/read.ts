// GET, HEAD and PROPFIND.
import { conditionalFrom, replyContent } from '../../http/replyContent.js';
import { followsCrossHostRedirects } from '../redirectClients.js';
import { errorReply, propfindReply, propfindStream, XML_TYPE } from '../davReplies.js';
import { propRequestOf } from '../davRequest.js';
import { DAV } from '../xml.js';
import type { DavHandler } from './types.js';

/** PROPFIND answers with more resources than this are streamed (chunked) instead of sent with a length. */
const STREAM_FROM = 200;
/** RFC 4331 properties: computed only when a PROPFIND names them. */
const QUOTA_PROPS = new Set(['quota-available-bytes', 'quota-used-bytes']);

export const getOrHead: DavHandler = async (req, { webdav }) => {
  const { c } = req;
  const head = req.method === 'HEAD';
  const base = conditionalFrom(c);
  const since = req.header('if-modified-since');
  const result = await webdav.content(
    req.principal,
    req.path,
    // Only clients known to follow a redirect to another host get one (302_redirect mounts).
    { head, allowRedirect: followsCrossHostRedirects(req.header('user-agent')) },
    (info) => {
      const out = base(info);
      if (!out.notModified && since && !req.header('if-none-match')) {
        const t = Date.parse(since);
        if (!Number.isNaN(t) && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(t / 1000)) {
          return { ...out, notModified: true };
        }
      }
      return out;
    },
  );
  if (result.kind === 'collection') {
    c.header('Content-Type', 'text/plain; charset=utf-8');
    return head ? c.body(null, 200) : c.body(`WebDAV collection ${result.resource.path}\n`, 200);
  }
  return replyContent(c, result);
};

export const propfind: DavHandler = async (req, { webdav }) => {
  const depth = req.depth('infinity');
  const request = propRequestOf(await req.xmlBody());
  if (depth === 'infinity') {
    return req.xml(errorReply('Depth: infinity is not served: use Depth 0 or 1', 'propfind-finite-depth'), 403);
  }
  const named = request.kind === 'prop' ? request.props : request.kind === 'allprop' ? request.include : [];
  const quota = named.some((p) => p.ns === DAV && QUOTA_PROPS.has(p.name));
  const { total, pages } = await webdav.propfindPages(req.principal, req.path, depth, { quota });
  if (total <= STREAM_FROM) {
    const items = [];
    for await (const page of pages) items.push(...page);
    return req.xml(propfindReply(items, request, req.view), 207);
  }
  // A big folder: the multistatus goes out in chunks as it is written, never whole in memory, and the
  // service gives the event loop a turn between pages of members (other requests go on being answered).
  const chunks = propfindStream(pages, request, req.view);
  const encoder = new TextEncoder();
  req.c.header('Content-Type', XML_TYPE);
  return req.c.body(
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    }),
    207,
  );
};
