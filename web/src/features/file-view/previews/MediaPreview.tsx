import type { FileKind } from '@clipnest/contract';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { ImagePreview } from '../../../components/preview/ImagePreview';

/**
 * Image, video, audio and PDF previews from a URL (the share's preview URL, or an object URL of a file
 * decrypted in the browser). Other kinds show `fallback`.
 */
export function MediaPreview({
  kind,
  src,
  name,
  onError,
  fallback = null,
}: {
  kind: FileKind;
  src: string;
  name: string;
  onError?: () => void;
  fallback?: ReactNode;
}) {
  const { t } = useTranslation();
  const failed = onError ?? (() => undefined);
  switch (kind) {
    case 'image':
      return <ImagePreview src={src} alt={name} onError={failed} />;
    case 'video':
      return (
        <video
          src={src}
          controls
          preload="metadata"
          onError={failed}
          className="max-h-[75dvh] w-full rounded-lg border border-border bg-black"
          data-testid="video-preview"
        />
      );
    case 'audio':
      return (
        <div className="rounded-lg border border-border bg-surface p-6">
          <audio
            src={src}
            controls
            preload="metadata"
            onError={failed}
            className="w-full"
            data-testid="audio-preview"
          />
        </div>
      );
    case 'pdf':
      return (
        <iframe
          src={src}
          title={t('files.view.previewOf', { name })}
          className="h-[80dvh] w-full rounded-lg border border-border bg-surface"
          data-testid="pdf-preview"
        />
      );
    default:
      return fallback;
  }
}
