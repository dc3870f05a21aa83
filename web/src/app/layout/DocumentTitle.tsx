import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches } from 'react-router';
import { useSession } from '../../lib/useSession';
import { useSiteConfig } from '../../lib/siteConfig';
import { buildDocumentTitle, isRouteHandle, type TitleKey } from '../routeMeta';

/** Sets `{page subtitle} - {site title}` from the deepest route handle (spec §2). */
export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const location = useLocation();
  const session = useSession();
  const site = useSiteConfig();

  let key: TitleKey | null = null;
  for (const match of matches) if (isRouteHandle(match.handle)) key = match.handle.titleKey;
  if (location.pathname.startsWith('/admin') && session.type === 'none') key = 'pageTitle.login';
  const title = buildDocumentTitle(key ? t(key) : null, site.site_title);

  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
