import { lazy } from 'react';

// The e-book reader (JSZip, DOMPurify), the HLS player (hls.js) and the subtitle tracks: each loaded only when
// a file of its kind is opened, so no route carries them.
export const EpubReader = lazy(() => import('./ebook/EpubReader').then((m) => ({ default: m.EpubReader })));
export const HlsVideo = lazy(() => import('./hls/HlsVideo').then((m) => ({ default: m.HlsVideo })));
export const SubtitledVideo = lazy(() =>
  import('./subtitles/SubtitledVideo').then((m) => ({ default: m.SubtitledVideo })),
);
