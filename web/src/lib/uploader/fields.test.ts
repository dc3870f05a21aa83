import { describe, expect, it } from 'vitest';
import { uploadMimetype } from '@clipnest/contract';
import { buildUploadForm, shareOptionEntries, slugForIndex } from './fields';
import { SpeedMeter } from './speed';

describe('upload fields', () => {
  it('gives Markdown extensions text/markdown, else the browser type, else octet-stream', () => {
    expect(uploadMimetype('README.MD', '')).toBe('text/markdown');
    expect(uploadMimetype('notes.rmd', 'application/x')).toBe('text/markdown');
    expect(uploadMimetype('a.png', 'image/png')).toBe('image/png');
    expect(uploadMimetype('blob', '')).toBe('application/octet-stream');
  });

  it('sends only the options that are set', () => {
    expect(shareOptionEntries({})).toEqual([]);
    expect(
      shareOptionEntries({ slug: '  ', remark: '', password: '', expires_in: 0, max_views: 0, path: ' docs ' }),
    ).toEqual([['path', 'docs']]);
    expect(
      shareOptionEntries({ s3_config_id: 'c1', password: ' p ', expires_in: 24, max_views: 3, use_proxy: false }),
    ).toEqual([
      ['s3_config_id', 'c1'],
      ['password', ' p '],
      ['expires_in', '24'],
      ['max_views', '3'],
      ['use_proxy', 'false'],
    ]);
  });

  it('builds the form with fields before the file', () => {
    const form = buildUploadForm(new File(['x'], 'a.md'), 'a.md', { slug: 's' });
    expect([...form.keys()]).toEqual(['mimetype', 'slug', 's3_config_id', 'path', 'size', 'file']);
    expect(form.get('size')).toBe('1');
    expect(form.get('mimetype')).toBe('text/markdown');
  });

  it('numbers custom slugs for the 2nd and later files', () => {
    expect(slugForIndex('doc', 0)).toBe('doc');
    expect(slugForIndex('doc', 2)).toBe('doc-3');
    expect(slugForIndex('', 1)).toBeUndefined();
  });
});

describe('SpeedMeter', () => {
  it('measures speed over its window and the time left', () => {
    const meter = new SpeedMeter(3000);
    expect(meter.speed()).toBeNull();
    meter.add(0, 0);
    meter.add(100, 100);
    expect(meter.speed()).toBeNull();
    meter.add(1000, 1000);
    expect(meter.speed()).toBe(1000);
    expect(meter.eta(3000)).toBe(2);
    meter.add(2000, 5000);
    meter.add(4000, 6000);
    // Samples older than the window fall out (one anchor before it stays): (4000 - 1000) B / 5 s.
    expect(meter.speed()).toBe(600);
  });
});
