import { useEffect } from 'react';
import { matchRoute, useRouter } from 'wouter';
import { useTranslation } from '../../lib/useTranslation';
import { usePathname } from '../../lib/navigation';
import { useSession } from '../../lib/useSession';
import { useSiteConfig } from '../../lib/siteConfig';
import { buildDocumentTitle, type TitleKey } from '../routeMeta';
import { ADMIN_ROUTES, PUBLIC_ROUTES, type ScreenRoute } from '../routes';

const ROUTES: readonly ScreenRoute[] = [...PUBLIC_ROUTES, ...ADMIN_ROUTES];

/** Sets `{page subtitle} - {site title}` from the route of the address (spec §2, app/routes.ts). */
export function DocumentTitle() {
  const { t } = useTranslation();
  const pathname = usePathname();
  const { parser } = useRouter();
  const session = useSession();
  const site = useSiteConfig();

  let key: TitleKey | null = ROUTES.find((route) => matchRoute(parser, route.path, pathname)[0])?.title ?? null;
  if (/^\/admin(\/|$)/i.test(pathname) && session.type === 'none') key = 'pageTitle.login';
  // An admin page's title comes with the admin frame's texts: until they are in, the site title alone.
  const subtitle = key ? t(key) : null;
  const title = buildDocumentTitle(subtitle === key ? null : subtitle, site.site_title);

  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
