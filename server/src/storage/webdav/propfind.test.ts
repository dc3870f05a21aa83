import { describe, expect, it } from 'vitest';
import { parseQuota } from './propfind.js';

const answer = (props: string, status = '200 OK') =>
  '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/</d:href>' +
  `<d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 ${status}</d:status></d:propstat></d:response></d:multistatus>`;

describe('parseQuota (RFC 4331)', () => {
  it('reads both figures', () => {
    const xml = answer(
      '<d:quota-available-bytes>1000</d:quota-available-bytes><d:quota-used-bytes>24</d:quota-used-bytes>',
    );
    expect(parseQuota(xml)).toEqual({ availableBytes: 1000, usedBytes: 24 });
  });

  it('is undefined when the server does not tell (a 404 propstat, as Apache mod_dav_fs and rclone serve answer)', () => {
    expect(parseQuota(answer('<d:quota-available-bytes/><d:quota-used-bytes/>', '404 Not Found'))).toBeUndefined();
  });

  it('is undefined for one figure only, or one that is not a byte count', () => {
    expect(parseQuota(answer('<d:quota-available-bytes>5</d:quota-available-bytes>'))).toBeUndefined();
    const bad = answer(
      '<d:quota-available-bytes>-1</d:quota-available-bytes><d:quota-used-bytes>x</d:quota-used-bytes>',
    );
    expect(parseQuota(bad)).toBeUndefined();
  });
});
