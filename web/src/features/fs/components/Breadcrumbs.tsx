import { ChevronRight, House } from 'lucide-react';
import { useTranslation } from '../../../lib/useTranslation';
import { Link } from 'wouter';
import { crumbs, explorerHref } from '../paths';

/** The path as links (deep links and the back button work: each crumb is a URL). */
export function Breadcrumbs({ path }: { path: string }) {
  const { t } = useTranslation();
  const trail = crumbs(path);
  return (
    <nav aria-label={t('fs.explorer.breadcrumbs')} className="min-w-0">
      <ol className="flex min-w-0 flex-wrap items-center gap-1 text-sm" data-testid="fs-breadcrumbs">
        {trail.map((c, i) => {
          const last = i === trail.length - 1;
          return (
            <li key={c.path} className="flex min-w-0 items-center gap-1">
              {i > 0 && <ChevronRight className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />}
              {last ? (
                <span aria-current="page" className="truncate font-medium">
                  {c.name || t('fs.explorer.root')}
                </span>
              ) : (
                <Link
                  to={explorerHref(c.path)}
                  className="flex max-w-[12rem] items-center gap-1 truncate rounded text-muted-foreground hover:text-foreground"
                >
                  {i === 0 && <House className="size-3.5 shrink-0" aria-hidden="true" />}
                  <span className="truncate">{c.name || t('fs.explorer.root')}</span>
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
