import { LayoutDashboard } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function DashboardPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={LayoutDashboard}
      title={t('admin.pages.dashboard')}
      description={t('admin.pageBody.dashboard')}
      showHomeLink={false}
    />
  );
}
