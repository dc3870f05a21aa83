import type { FsEntryView } from '@clipnest/contract';
import { hasThumbnail, thumbnailSizeFor } from '@clipnest/contract/fs-limits';
import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '../../../lib/api';
import { authorizationHeader, getSession } from '../../../lib/auth';
import { cn } from '../../../lib/cn';
import { EntryIcon } from './EntryIcon';

/** The thumbnail URL of an entry: its ETag in `v` lets the browser keep it until the object changes. */
export function thumbnailUrl(entry: FsEntryView, size: number): string {
  const query = new URLSearchParams({ path: entry.path, size: String(thumbnailSizeFor(size)) });
  const version = entry.etag ?? entry.modified;
  if (version) query.set('v', version);
  return `${apiUrl('/fs/thumbnail')}?${query.toString()}`;
}

/** What the fetch of one thumbnail URL gave: an object URL, or a failure (then the icon shows). */
type Loaded = { for: string; src?: string };

/**
 * A server-made thumbnail (GET /api/fs/thumbnail, a few KB) for images, fetched with the session's
 * credentials once the tile comes near the screen; a soft placeholder while it loads, the type's icon for
 * anything else (folders, video, files over 50 MB, errors). Originals are never downloaded here.
 */
export function Thumbnail({
  entry,
  px,
  fit,
  onRatio,
}: {
  entry: FsEntryView;
  px: number;
  fit: 'cover' | 'contain';
  /** Told the picture's height ÷ width (bounded to 0.4–2.5) once it has loaded: the gallery's masonry. */
  onRatio?: (ratio: number) => void;
}) {
  const wanted = !entry.isDirectory && hasThumbnail(entry.mimetype, entry.size);
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const size = thumbnailSizeFor(Math.min(512, Math.ceil(px * (globalThis.devicePixelRatio || 1))));
  const url = wanted ? thumbnailUrl(entry, size) : null;

  useEffect(() => {
    const el = ref.current;
    if (!url || !el || near) return;
    const io = new IntersectionObserver((seen) => seen.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '200px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, [url, near]);

  useEffect(() => {
    if (!url || !near) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const header = authorizationHeader(getSession());
    fetch(url, { signal: controller.signal, headers: header ? { Authorization: header } : {} })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        objectUrl = URL.createObjectURL(await response.blob());
        setLoaded({ for: url, src: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ for: url });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, near]);

  const current = loaded && loaded.for === url ? loaded : null;
  if (current?.src) {
    return (
      <img
        src={current.src}
        alt=""
        decoding="async"
        data-testid="fs-thumb"
        className={cn('size-full', fit === 'cover' ? 'object-cover' : 'object-contain')}
        onLoad={(e) => {
          const { naturalWidth: w, naturalHeight: h } = e.currentTarget;
          if (onRatio && w > 0 && h > 0) onRatio(Math.min(2.5, Math.max(0.4, h / w)));
        }}
      />
    );
  }
  const pending = url !== null && !current;
  return (
    <div
      ref={ref}
      data-testid={pending ? 'fs-thumb-pending' : undefined}
      className={cn('grid size-full place-items-center', pending && 'animate-pulse bg-surface-muted')}
    >
      <EntryIcon entry={entry} className={cn('size-10', pending && 'opacity-40')} />
    </div>
  );
}
