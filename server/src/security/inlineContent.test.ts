import { describe, expect, it } from 'vitest';
import { cleanFilename } from '../services/shares/fileShareRules.js';
import { canRunScript, cleanMimetype, ownTypePolicy, servingPolicy, shareMimetype } from './inlineContent.js';

describe('servingPolicy', () => {
  it('renders only script-free types inline', () => {
    expect(servingPolicy('image/png')).toEqual({ inline: true, contentType: 'image/png', sandbox: false });
    expect(servingPolicy('video/mp4').inline).toBe(true);
    expect(servingPolicy('audio/mpeg').inline).toBe(true);
    expect(servingPolicy('application/pdf').inline).toBe(true);
    expect(servingPolicy('text/markdown')).toEqual({
      inline: true,
      contentType: 'text/plain; charset=utf-8',
      sandbox: true,
    });
    expect(servingPolicy('application/json').contentType).toBe('text/plain; charset=utf-8');
    for (const t of ['text/html', 'image/svg+xml', 'application/xml', 'text/xml', 'application/xhtml+xml', 'x/y', '']) {
      const p = servingPolicy(t);
      expect(p.inline, t).toBe(false);
      expect(p.sandbox, t).toBe(true);
    }
  });
  it('cleans client mimetypes', () => {
    expect(cleanMimetype('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(cleanMimetype('not a type')).toBe('application/octet-stream');
    expect(cleanMimetype(undefined)).toBe('application/octet-stream');
  });
});

describe('cleanFilename', () => {
  it('keeps the last segment and refuses dot names and control characters', () => {
    expect(cleanFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename('报告.txt')).toBe('报告.txt');
    for (const bad of ['', '..', '.', '%2e%2e', '%2E', 'a/..', 'a\u0000b', 'a\nb', 'x'.repeat(300)]) {
      expect(() => cleanFilename(bad), JSON.stringify(bad)).toThrow();
    }
  });
});

describe('shareMimetype', () => {
  it('takes the type from the name only when the client sent none or a generic one', () => {
    expect(shareMimetype('photo.png', undefined, undefined)).toBe('image/png');
    expect(shareMimetype('photo.png', '', 'application/octet-stream')).toBe('image/png');
    expect(shareMimetype('clip.MP4', 'binary/octet-stream', undefined)).toBe('video/mp4');
    expect(shareMimetype('photo.png', 'image/webp', 'image/gif')).toBe('image/webp');
    expect(shareMimetype('photo.png', undefined, 'image/gif; foo=bar')).toBe('image/gif');
    expect(shareMimetype('notes.md', 'text/plain', undefined)).toBe('text/markdown');
    expect(shareMimetype('README', undefined, undefined)).toBe('application/octet-stream');
    expect(shareMimetype('weird.zzzz', undefined, 'not a type')).toBe('application/octet-stream');
  });
});

describe('ownTypePolicy (WebDAV)', () => {
  it('keeps a file its own type unless a browser could run script from it', () => {
    for (const t of [
      'text/plain',
      'text/markdown',
      'text/csv',
      'application/json',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/zip',
      'image/png',
      'application/pdf',
    ]) {
      expect(canRunScript(t), t).toBe(false);
      expect(ownTypePolicy(`${t}; charset=utf-8`), t).toMatchObject({ inline: true, contentType: t });
    }
    for (const t of [
      'text/html',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'application/rss+xml',
      'text/xsl',
      'text/javascript',
      'application/javascript',
      'application/ecmascript',
      'message/rfc822',
      'multipart/related',
      'TEXT/HTML; charset=utf-8',
      'not a type',
      '',
    ]) {
      expect(canRunScript(t), t).toBe(true);
      expect(ownTypePolicy(t), t).toEqual({ inline: false, contentType: 'application/octet-stream', sandbox: true });
    }
    expect(ownTypePolicy('application/octet-stream')).toEqual({
      inline: false,
      contentType: 'application/octet-stream',
      sandbox: true,
    });
  });
});
