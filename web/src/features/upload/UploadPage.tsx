import { Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function UploadPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <ComingSoon icon={Upload} title={t('feature.upload.title')} description={t('feature.upload.body')} />
    </div>
  );
}
