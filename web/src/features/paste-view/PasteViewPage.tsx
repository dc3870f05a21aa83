import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon';

export default function PasteViewPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <ComingSoon
        icon={FileText}
        title={t('feature.pasteView.title')}
        description={t('feature.pasteView.body', { slug })}
      />
    </div>
  );
}
