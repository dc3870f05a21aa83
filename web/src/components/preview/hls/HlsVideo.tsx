import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../ui/alert';
import { useTranslation } from '../../../lib/useTranslation';
import { routedLoader, virtualUrl } from './routedLoader';

type Failure = 'notShared' | 'failed' | 'unsupported';

/**
 * An HLS playlist (.m3u8) played with hls.js (loaded only here) where the browser has Media Source Extensions,
 * natively elsewhere (older iPhones). Playlists and segments are read through `resolve` (folder path → link on
 * our own origin), so the segments beside the playlist play from the same folder. `single`: only the playlist
 * itself is shared, so a failing segment means it was not shared with it.
 */
export function HlsVideo({
  path,
  resolve,
  authorization,
  single = false,
  className,
}: {
  path: string;
  resolve: (path: string) => string | null;
  authorization?: string;
  single?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const resolveRef = useRef(resolve);
  useEffect(() => {
    resolveRef.current = resolve;
  }, [resolve]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let cancelled = false;
    let destroy = () => undefined as void;
    void import('hls.js/light').then(({ default: Hls }) => {
      if (cancelled) return;
      if (!Hls.isSupported()) {
        const direct = resolveRef.current(path);
        if (direct && element.canPlayType('application/vnd.apple.mpegurl')) element.src = direct;
        else setFailure('unsupported');
        return;
      }
      const hls = new Hls({
        loader: routedLoader(Hls.DefaultConfig.loader, (p) => {
          const real = resolveRef.current(p);
          // A part the link does not reach fails for good: say so now rather than after hls.js's retries.
          if (real === null && !cancelled) setFailure(single ? 'notShared' : 'failed');
          return real;
        }),
        xhrSetup: authorization
          ? (xhr) => {
              xhr.setRequestHeader('Authorization', authorization);
            }
          : undefined,
      });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        const playlistItself = data.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR;
        setFailure(single && data.type === Hls.ErrorTypes.NETWORK_ERROR && !playlistItself ? 'notShared' : 'failed');
      });
      hls.loadSource(virtualUrl(path));
      hls.attachMedia(element);
      destroy = () => hls.destroy();
    });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [path, authorization, single]);

  return (
    <div className="flex flex-col gap-2">
      {failure && (
        <div data-testid="hls-failure">
          <Alert tone="warning">{t(`preview.hls.${failure}`)}</Alert>
        </div>
      )}
      <video ref={video} controls preload="metadata" className={className} data-testid="hls-video" />
    </div>
  );
}
