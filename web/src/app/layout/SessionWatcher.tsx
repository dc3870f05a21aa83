import { useEffect } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { usePathname } from '../../lib/navigation';
import { toast } from '../../lib/toast';
import { AUTH_EVENTS, takeLogoutNotice } from '../../lib/auth';
import { revalidateSession } from '../../lib/sessionValidation';

/**
 * Keeps the session honest: revalidates on navigation and when the tab regains focus (the check
 * itself runs only when due, spec §4), and tells the user when the server ended the session.
 */
export function SessionWatcher() {
  const { t } = useTranslation();
  const pathname = usePathname();

  useEffect(() => {
    void revalidateSession();
  }, [pathname]);

  useEffect(() => {
    const onFocus = () => void revalidateSession();
    const onEnded = () => {
      const notice = takeLogoutNotice();
      const fallback =
        notice?.cause === 'api-key-invalid' ? t('errors.apiKeyInvalid') : t('errors.adminSessionExpired');
      toast.error(notice?.message ?? fallback, { id: 'session-ended' });
    };
    window.addEventListener('focus', onFocus);
    window.addEventListener(AUTH_EVENTS.adminTokenExpired, onEnded);
    window.addEventListener(AUTH_EVENTS.apiKeyInvalid, onEnded);
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener(AUTH_EVENTS.adminTokenExpired, onEnded);
      window.removeEventListener(AUTH_EVENTS.apiKeyInvalid, onEnded);
    };
  }, [t]);
  return null;
}
