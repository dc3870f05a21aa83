// E-books, subtitles, HLS and code (issue 42 points 2 and 4) on real sample files: the file share page, the
// explorer's preview and a folder share, in English and Chinese, on a phone and a desktop. Nothing may load
// from another origin. CLIPNEST_SHOTS=1 adds the dark theme and writes screenshots to /tmp/media-preview-shots.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { FileView, ShareView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { watchForeign } from '../support/foreignRequests';
import { uploadViaApi } from '../support/files';
import { localStorage, mount } from '../support/mounts';
import {
  bigPython,
  M3U8,
  makeEpub,
  makeWebm,
  SRT,
  SRT_ZH,
  TS_SOURCE,
  tsSegment,
  VTT_EN,
} from '../support/mediaSamples';

const shots = process.env.CLIPNEST_SHOTS === '1';
const out = '/tmp/media-preview-shots';
const run = Date.now().toString(36);
const mountPath = `/media${run}`;

/** The `path=` of every file the page read with a 200 (fs downloads and share files alike). */
function watchFiles(page: Page): string[] {
  const read: string[] = [];
  page.on('response', (response) => {
    const file = new URL(response.url()).searchParams.get('path');
    if (file && response.status() === 200) read.push(`${new URL(response.url()).pathname} ${file}`);
  });
  return read;
}

test.describe('e-book, subtitle, HLS and code previews', () => {
  test.describe.configure({ timeout: 240_000 });
  const files: Record<string, FileView> = {};
  let folderShare = '';

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    const epub = await makeEpub();
    const webm = await makeWebm(browser);
    const { config, root } = await localStorage(token, `media${run}`);
    mkdirSync(path.join(root, 'stream'), { recursive: true });
    writeFileSync(path.join(root, 'book.epub'), epub);
    writeFileSync(path.join(root, 'clip.webm'), webm);
    writeFileSync(path.join(root, 'clip.srt'), SRT);
    writeFileSync(path.join(root, 'clip.en.vtt'), VTT_EN);
    writeFileSync(path.join(root, 'clip.zh.srt'), SRT_ZH);
    writeFileSync(path.join(root, 'other.srt'), SRT);
    writeFileSync(path.join(root, 'stream', 'playlist.m3u8'), M3U8);
    writeFileSync(path.join(root, 'stream', 'seg0.ts'), tsSegment());
    writeFileSync(path.join(root, 'stream', 'seg1.ts'), tsSegment());
    await mount(token, `media${run}`, mountPath, config.id);
    const share = await call<ShareView>('POST', '/shares', { token, body: { path: mountPath } });
    expect(share.status).toBe(201);
    folderShare = share.envelope.data!.slug;
    files.epub = await uploadViaApi(token, 'sample-book.epub', epub, 'application/epub+zip');
    files.m3u8 = await uploadViaApi(token, 'lonely.m3u8', M3U8, 'application/vnd.apple.mpegurl');
    files.ts = await uploadViaApi(token, 'geometry.ts', TS_SOURCE, 'text/plain');
    files.py = await uploadViaApi(token, 'big_module.py', bigPython(), 'text/x-python');
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    for (const width of [390, 1280] as const) {
      for (const theme of shots ? (['light', 'dark'] as const) : (['light'] as const)) {
        /** The page at this size, language and theme, watching what it reads and from where. */
        const open = async (page: Page, token: string) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const shot = async (name: string) => {
            if (shots) await page.screenshot({ path: path.join(out, `${name}-${lang}-${theme}-${width}.png`) });
          };
          return { foreign: watchForeign(page), read: watchFiles(page), en: lang === 'en', shot };
        };

        test(`e-book: ${lang}, ${width}px, ${theme}`, async ({ page, token }) => {
          const { foreign, en, shot } = await open(page, token);
          // The e-book on its file share page: chapters, contents, buttons and arrow keys; nothing in it runs.
          await page.goto(`/file/${files.epub!.slug}`);
          const reader = page.getByTestId('epub-reader');
          const chapter = page.frameLocator('[data-testid="epub-chapter"]');
          await expect(chapter.getByRole('heading', { name: 'Chapter One: The Harbour' })).toBeVisible({
            timeout: 30_000,
          });
          await expect(reader).toContainText('The Clipnest Sample Book');
          await expect(page.getByTestId('epub-chapter')).toHaveAttribute('sandbox', '');
          await expect(chapter.locator('script, [onerror], a[href^="javascript"]')).toHaveCount(0);
          await expect(chapter.locator('img[alt="A cover picture"]')).toHaveAttribute(
            'src',
            /^data:image\/png;base64,/,
          );
          await expect(chapter.locator('body')).not.toHaveAttribute('data-pwned', /.*/);
          expect(await page.evaluate(() => (window as { __epubPwned?: boolean }).__epubPwned)).toBeUndefined();
          await expect(page.getByTestId('epub-toc').locator('option')).toHaveText([
            'Chapter One: The Harbour',
            '第二章：山中',
          ]);
          await expect(reader).toContainText(en ? 'Use ← and → to turn chapters' : '用 ← 和 → 翻章');
          await shot('epub');
          await page.getByTestId('epub-next').click();
          await expect(chapter.getByText('山里的雾散了，路也清楚了。')).toBeVisible();
          await expect(page.getByTestId('epub-next')).toBeDisabled();
          await page.keyboard.press('ArrowLeft');
          await expect(chapter.getByText('The boats came in at dawn.')).toBeVisible();
          await page.keyboard.press('ArrowRight');
          await expect(chapter.getByText('The second chapter ends the book.')).toBeVisible();
          await page.getByTestId('epub-toc').selectOption({ label: 'Chapter One: The Harbour' });
          await expect(chapter.getByText('The boats came in at dawn.')).toBeVisible();

          // The same book in the explorer's preview.
          await page.goto(`/mount-explorer${mountPath}?preview=${encodeURIComponent(`${mountPath}/book.epub`)}`);
          await expect(
            page
              .frameLocator('[data-testid="epub-chapter"]')
              .getByRole('heading', { name: 'Chapter One: The Harbour' }),
          ).toBeVisible({ timeout: 30_000 });
          await shot('epub-explorer');
          expect(foreign).toEqual([]);
        });

        test(`subtitles: ${lang}, ${width}px, ${theme}`, async ({ page, token }) => {
          const { foreign, en, shot } = await open(page, token);
          // A video with its subtitles beside it: three tracks (other.srt is not its own), SubRip as WebVTT.
          await page.goto(`/mount-explorer${mountPath}?preview=${encodeURIComponent(`${mountPath}/clip.webm`)}`);
          const tracks = page.getByTestId('subtitle-track');
          await expect(tracks).toHaveCount(3, { timeout: 30_000 });
          await expect(tracks.nth(0)).toHaveAttribute('label', en ? 'Subtitles 1' : '字幕 1');
          await expect(tracks.nth(1)).toHaveAttribute('srclang', 'en');
          await expect(tracks.nth(1)).toHaveAttribute('label', en ? 'English' : '英语');
          await expect(tracks.nth(2)).toHaveAttribute('label', en ? 'Chinese' : '中文');
          await expect
            .poll(() =>
              page.evaluate(() => {
                const track = document.querySelector('video')?.textTracks[0];
                return track?.cues ? Array.from(track.cues, (cue) => (cue as VTTCue).text) : [];
              }),
            )
            .toEqual(['Hello from the SubRip file', 'Second line']);
          await shot('subtitles-explorer');

          // The folder share offers the same tracks.
          await page.goto(`/s/${folderShare}?file=${encodeURIComponent('/clip.webm')}`);
          await expect(page.getByTestId('subtitle-track')).toHaveCount(3, { timeout: 30_000 });
          expect(foreign).toEqual([]);
        });

        test(`HLS: ${lang}, ${width}px, ${theme}`, async ({ page, token }) => {
          const { foreign, read, en, shot } = await open(page, token);
          // HLS: the playlist and its segments through the same folder, in the explorer and on the folder share.
          await page.goto(
            `/mount-explorer${mountPath}?preview=${encodeURIComponent(`${mountPath}/stream/playlist.m3u8`)}`,
          );
          await expect(page.getByTestId('hls-video')).toBeVisible({ timeout: 30_000 });
          await expect.poll(() => read, { timeout: 30_000 }).toContain(`/api/fs/download ${mountPath}/stream/seg0.ts`);
          await shot('hls-explorer');
          await page.goto(`/s/${folderShare}?path=%2Fstream&file=${encodeURIComponent('/stream/playlist.m3u8')}`);
          await expect(page.getByTestId('hls-video')).toBeVisible({ timeout: 30_000 });
          await expect
            .poll(() => read, { timeout: 30_000 })
            .toContain(`/api/shares/${folderShare}/file /stream/seg0.ts`);

          // A playlist shared alone: its segments are not shared, and the page says so.
          await page.goto(`/file/${files.m3u8!.slug}`);
          await expect(page.getByTestId('hls-failure')).toContainText(
            en ? 'Only the playlist is shared by this link' : '此链接只分享了播放列表',
            { timeout: 30_000 },
          );
          await shot('hls-single');
          expect(foreign).toEqual([]);
        });

        test(`code: ${lang}, ${width}px, ${theme}`, async ({ page, token }) => {
          const { foreign, en, shot } = await open(page, token);
          // Code: line numbers, the language from the name, highlighted; a big file only in part.
          await page.goto(`/file/${files.ts!.slug}`);
          await expect(page.getByTestId('code-language')).toHaveText('typescript', { timeout: 30_000 });
          await expect(page.getByTestId('text-preview').locator('.hljs-keyword').first()).toBeVisible();
          await expect(page.getByTestId('line-numbers')).toHaveText(/^1\n2\n3[\s\S]*\n14$/);
          await shot('code');
          await page.goto(`/file/${files.py!.slug}`);
          await expect(page.getByTestId('code-language')).toHaveText('python', { timeout: 30_000 });
          await expect(page.getByTestId('highlight-partial')).toContainText(
            en ? 'Highlighted the first' : '只高亮了前',
          );
          await expect(page.getByTestId('text-preview').locator('.hljs-keyword').first()).toBeVisible();
          expect(foreign).toEqual([]);
        });
      }
    }
  }

  test('the preview settings list the new kinds, and the web follows them', async ({ page, token }) => {
    await seedStorage(page, { language: 'en', admin_token: token });
    await page.goto('/admin/settings/preview');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('E-books (reader)')).toHaveValue('epub');
    await expect(page.getByLabel('Subtitles (offered with the video of the same name)')).toHaveValue('srt,vtt');
    await expect(page.getByLabel('HLS streams (.m3u8 playlists)')).toHaveValue('m3u8');
    const listed = await call<Record<string, string>>('GET', '/public/preview-settings', {});
    expect(listed.envelope.data).toEqual({
      preview_ebook_types: 'epub',
      preview_subtitle_types: 'srt,vtt',
      preview_hls_types: 'm3u8',
    });
    // A bad list is refused with the error envelope and changes nothing.
    const bad = await call('PUT', '/admin/settings/group/2', { token, body: { preview_ebook_types: '.epub; rm -rf' } });
    expect(bad.status).toBe(400);
    expect(
      (await call<Record<string, string>>('GET', '/public/preview-settings', {})).envelope.data?.preview_ebook_types,
    ).toBe('epub');
  });
});
