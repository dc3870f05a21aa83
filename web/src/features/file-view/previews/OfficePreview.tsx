import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Alert } from '../../../components/ui/alert';
import { OfficeViewerFrame, officeProviderName } from '../../../components/preview/OfficeViewerFrame';
import { BuiltinPreview } from '../../../components/preview/builtin/BuiltinPreview';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api';
import { officePreview, resolveFileUrl } from '../api';

/**
 * Office documents as the preview settings say: rendered in the page from our own origin (built in), or
 * through the Microsoft or Google viewer (a third-party page in a frame).
 */
export function OfficePreview({
  slug,
  token,
  filename,
  fallback,
}: {
  slug: string;
  token: string;
  filename: string;
  fallback?: ReactNode;
}) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: ['office-preview', slug, token],
    queryFn: ({ signal }) => officePreview(slug, token, signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  if (preview.isPending) return <Skeleton className="h-[70dvh] w-full rounded-lg" />;
  if (preview.isError || !preview.data?.url) {
    return (
      <Alert tone="warning" title={t('files.view.officeFailed')}>
        {preview.error ? errorMessage(preview.error) : t('errors.preview.unsupportedProvider')}
      </Alert>
    );
  }
  if (preview.data.provider === 'builtin') {
    return <BuiltinPreview url={resolveFileUrl(preview.data.url)} name={filename} fallback={fallback} />;
  }
  return (
    <OfficeViewerFrame
      url={preview.data.url}
      title={t('files.view.previewOf', { name: filename })}
      note={t('files.view.officeNote', { provider: officeProviderName(preview.data.provider) })}
      className="h-[75dvh]"
    />
  );
}
