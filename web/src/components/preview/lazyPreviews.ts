import { lazy } from 'react';
import { withTextAreas } from '../../lib/i18n';

// The e-book reader (JSZip, DOMPurify), the HLS player (hls.js) and the subtitle tracks: each loaded only when
// a file of its kind is opened, so no route carries them; each brings the preview texts with it.
export const EpubReader = lazy(() =>
  withTextAreas(['preview'], () => import('./ebook/EpubReader')).then((m) => ({ default: m.EpubReader })),
);
export const HlsVideo = lazy(() =>
  withTextAreas(['preview'], () => import('./hls/HlsVideo')).then((m) => ({ default: m.HlsVideo })),
);
export const SubtitledVideo = lazy(() =>
  withTextAreas(['preview'], () => import('./subtitles/SubtitledVideo')).then((m) => ({ default: m.SubtitledVideo })),
);
