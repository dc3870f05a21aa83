// COPY and MOVE.
import { AppError } from '../../errors.js';
import type { DavHandler } from './types.js';

export const copyOrMove: DavHandler = async (req, { webdav }) => {
  const { method } = req;
  const destination = req.header('destination');
  if (!destination) throw AppError.validation('the Destination header is required');
  const to = req.pathOfUrl(destination);
  if (to === undefined) throw new AppError('BAD_GATEWAY', 'the destination is on another server');
  const depth = req.depth('infinity');
  if (depth === '1' || (method === 'MOVE' && depth !== 'infinity')) {
    throw AppError.validation(`Depth ${depth} is not allowed for ${method}`);
  }
  const overwrite = (req.header('overwrite') ?? 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw AppError.validation('Overwrite must be T or F');
  const result = await webdav.transfer(req.principal, method === 'COPY' ? 'copy' : 'move', req.path, to, {
    depth: depth === '0' ? '0' : 'infinity',
    overwrite: overwrite === 'T',
    ifLists: req.ifLists(),
  });
  return req.empty(result.created ? 201 : 204);
};
