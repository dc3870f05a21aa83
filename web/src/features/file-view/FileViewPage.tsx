import { File } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon';

export default function FileViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <ComingSoon icon={File} title={t('feature.fileView.title')} description={t('feature.fileView.body', { slug })} />
    </div>
  );
}
