import { useEffect } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { matchRoutes, useLocation } from '../../lib/router';
import { useSession } from '../../lib/useSession';
import { useSiteConfig } from '../../lib/siteConfig';
import { buildDocumentTitle, isRouteHandle, type TitleKey } from '../routeMeta';
import { routes } from '../router';

/** Sets `{page subtitle} - {site title}` from the deepest route handle (spec §2). */
export function DocumentTitle() {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = matchRoutes(routes, location) ?? [];
  const session = useSession();
  const site = useSiteConfig();

  let key: TitleKey | null = null;
  for (const match of matches) if (isRouteHandle(match.route.handle)) key = match.route.handle.titleKey;
  if (location.pathname.startsWith('/admin') && session.type === 'none') key = 'pageTitle.login';
  const title = buildDocumentTitle(key ? t(key) : null, site.site_title);

  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
