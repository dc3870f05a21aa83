import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { srtToVtt, subtitleLabel, type SubtitleMatch } from './subtitles';

export interface SubtitleSource extends SubtitleMatch {
  /** The subtitle's text, read from our own origin. */
  read: (signal: AbortSignal) => Promise<string>;
}

interface Track {
  name: string;
  language: string;
  url: string;
}

/**
 * A video with the subtitles found beside it as `<track>`s: each read as text, SubRip turned into WebVTT, and
 * given to the player as a blob: URL (nothing is fetched from another origin). A subtitle that fails is left out.
 */
export function SubtitledVideo({
  src,
  subtitles,
  className,
  onError,
}: {
  src: string;
  subtitles: SubtitleSource[];
  className?: string;
  onError?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [tracks, setTracks] = useState<Track[]>([]);
  const names = subtitles.map((s) => s.name).join('\n');

  useEffect(() => {
    const controller = new AbortController();
    const urls: string[] = [];
    void Promise.all(
      subtitles.map(async (s) => {
        try {
          const text = await s.read(controller.signal);
          const vtt = s.format === 'srt' ? srtToVtt(text) : text;
          const url = URL.createObjectURL(new Blob([vtt], { type: 'text/vtt' }));
          urls.push(url);
          return { name: s.name, language: s.language, url };
        } catch {
          return null;
        }
      }),
    ).then((loaded) => {
      if (!controller.signal.aborted) setTracks(loaded.filter((track) => track !== null));
    });
    return () => {
      controller.abort();
      for (const url of urls) URL.revokeObjectURL(url);
    };
    // The list of names stands for the sources (a new array every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [names]);

  return (
    <video src={src} controls preload="metadata" onError={onError} className={className} data-testid="video-preview">
      {tracks.map((track, i) => (
        <track
          key={track.url}
          kind="subtitles"
          src={track.url}
          srcLang={track.language || undefined}
          label={subtitleLabel(track.language, i18n.language, t('preview.subtitleDefault', { n: i + 1 }))}
          default={i === 0}
          data-testid="subtitle-track"
        />
      ))}
    </video>
  );
}
