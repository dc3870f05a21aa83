import { SlidersHorizontal } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function GlobalSettingsPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={SlidersHorizontal}
      title={t('admin.pages.settingsGlobal')}
      description={t('admin.pageBody.settingsGlobal')}
      showHomeLink={false}
    />
  );
}
