import { describe, expect, it } from 'vitest';
import { parseMultistatus, parseQuota, readMultistatus } from './propfind.js';

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

const apacheStyle =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" xmlns:ns0="DAV:">' +
  '<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/"><D:href>/dav/a/</D:href>' +
  '<D:propstat><D:prop><lp1:resourcetype><D:collection/></lp1:resourcetype>' +
  '<lp1:getlastmodified>Sun, 29 Nov 2026 10:00:00 GMT</lp1:getlastmodified></D:prop>' +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat>' +
  '<D:propstat><D:prop><D:getcontenttype/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>' +
  '</D:response>' +
  '<D:response><D:href>http://127.0.0.1:1/dav/a/caf%C3%A9%20%23%2B.txt</D:href>' +
  '<D:propstat><D:prop><lp1:resourcetype xmlns:lp1="DAV:"/><lp1:getcontentlength xmlns:lp1="DAV:">12</lp1:getcontentlength>' +
  '<lp1:getetag xmlns:lp1="DAV:">W/"abc"</lp1:getetag><D:getcontenttype><![CDATA[text/plain]]></D:getcontenttype>' +
  '<D:displayname>ignored &amp; skipped</D:displayname></D:prop>' +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>';

describe('parseMultistatus / readMultistatus', () => {
  const expected = [
    { hrefPath: '/dav/a/', isDir: true, size: 0, lastModified: new Date('2026-11-29T10:00:00Z') },
    { hrefPath: '/dav/a/café #+.txt', isDir: false, size: 12, etag: '"abc"', contentType: 'text/plain' },
  ];

  it('reads collections, sizes, etags, types and dates of 200 propstats, whatever the prefixes', () => {
    expect(parseMultistatus(apacheStyle)).toEqual(expected);
  });

  it('reads the same from a body cut anywhere, even inside a UTF-8 character', async () => {
    const bytes = Buffer.from(apacheStyle.replace('caf%C3%A9', 'café'));
    async function* pieces() {
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    }
    expect(await readMultistatus(pieces())).toEqual(expected);
  });

  it('throws on a body that is not XML', () => {
    expect(() => parseMultistatus('<D:multistatus xmlns:D="DAV:"><D:response>')).toThrow();
    expect(() => parseMultistatus('<html>&nbsp;</html>')).toThrow();
  });

  it('keeps no response outside a multistatus', () => {
    expect(parseMultistatus('<x><response><href>/a</href></response></x>')).toEqual([]);
  });
});

describe('parseQuota on a body that is not XML', () => {
  it('is undefined', () => {
    expect(parseQuota('<d:multistatus')).toBeUndefined();
  });
});
