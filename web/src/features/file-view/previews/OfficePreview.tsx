import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/useTranslation';
import { Alert } from '../../../components/ui/alert';
import { OfficeViewerFrame, officeProviderName } from '../../../components/preview/OfficeViewerFrame';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api';
import { officePreview } from '../api';

/** Office documents through the Microsoft or Google viewer (a third-party page in a frame). */
export function OfficePreview({ slug, token, filename }: { slug: string; token: string; filename: string }) {
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
  return (
    <OfficeViewerFrame
      url={preview.data.url}
      title={t('files.view.previewOf', { name: filename })}
      note={t('files.view.officeNote', { provider: officeProviderName(preview.data.provider) })}
      className="h-[75dvh]"
    />
  );
}
