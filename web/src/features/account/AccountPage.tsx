import { UserCog } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ComingSoon';

export default function AccountPage() {
  const { t } = useTranslation();
  return (
    <ComingSoon
      icon={UserCog}
      title={t('admin.pages.account')}
      description={t('admin.pageBody.account')}
      showHomeLink={false}
    />
  );
}
