import type { SearchResult, SearchScope } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { SearchField } from '../../../components/ui/search-field';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage } from '../../../lib/api';
import { formatBytes } from '../../../lib/format';
import { useDebounced } from '../../../lib/useDebounced';
import { explorerHref, parentPath } from '../paths';
import { recentSearches, useRecentSearches } from '../recentSearches';
import { EntryIcon } from './EntryIcon';

/** Spec §9: a search needs at least this many characters. */
export const SEARCH_MIN_CHARS = 2;

interface SearchProps {
  /** The folder the explorer shows ("this folder and below"). */
  path: string;
  /** Its mount ("this mount"); undefined at the root and other virtual folders. */
  mountId: string | undefined;
}

/** Name search over the mount tree (GET /fs/search) in three scopes; results open their folder (files with ?preview=). */
export function SearchDialog({
  open,
  onOpenChange,
  ...props
}: SearchProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title={t('fs.search.title')}>
          <SearchBody {...props} onDone={() => onOpenChange(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function SearchBody({ path, mountId, onDone }: SearchProps & { onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  // Everywhere first (spec §3: scope defaults to global); the narrower scopes are a click away.
  const [scope, setScope] = useState<SearchScope>('global');
  const recent = useRecentSearches();
  const term = useDebounced(q.trim(), 300);
  const ready = term.length >= SEARCH_MIN_CHARS;
  const results = useQuery({
    queryKey: ['fs', 'search', term, scope, mountId, path],
    queryFn: ({ signal }) =>
      api.get<SearchResult>('/fs/search', {
        signal,
        query: {
          q: term,
          scope,
          mount_id: scope === 'mount' ? mountId : undefined,
          path: scope === 'directory' ? path : undefined,
        },
      }),
    enabled: ready,
    retry: false,
  });
  const scopes: { value: SearchScope; label: string }[] = [{ value: 'global', label: t('fs.search.scope.global') }];
  if (mountId) scopes.push({ value: 'mount', label: t('fs.search.scope.mount') });
  if (path !== '/') scopes.push({ value: 'directory', label: t('fs.search.scope.directory') });
  const remember = () => recentSearches.add(term);

  return (
    <div className="flex flex-col gap-3" data-testid="fs-search">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim().length >= SEARCH_MIN_CHARS) recentSearches.add(q);
        }}
      >
        <SearchField value={q} onValueChange={setQ} label={t('fs.search.placeholder')} />
      </form>
      <ChoiceChips value={scope} onChange={setScope} options={scopes} label={t('fs.search.scopeLabel')} />
      {!ready ? (
        <div className="flex flex-col gap-1">
          <p className="text-xs text-muted-foreground">{t('fs.search.minChars', { count: SEARCH_MIN_CHARS })}</p>
          {recent.length > 0 && (
            <>
              <div className="flex items-center justify-between gap-2">
                <h3 className="text-xs font-medium text-muted-foreground">{t('fs.search.recent')}</h3>
                <Button variant="ghost" size="sm" onClick={() => recentSearches.clear()}>
                  {t('fs.search.clearRecent')}
                </Button>
              </div>
              <ul className="flex flex-wrap gap-1" data-testid="fs-recent-searches">
                {recent.map((r) => (
                  <li key={r}>
                    <Button variant="secondary" size="sm" onClick={() => setQ(r)}>
                      <History className="size-3.5" aria-hidden="true" />
                      {r}
                    </Button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : results.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : results.isError ? (
        <p className="text-sm text-destructive-soft-foreground">{errorMessage(results.error)}</p>
      ) : results.data.items.length === 0 ? (
        <p className="px-2 py-3 text-sm text-muted-foreground">{t('fs.search.none')}</p>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">{t('fs.search.count', { count: results.data.total })}</p>
          <ul className="flex max-h-[50vh] flex-col gap-0.5 overflow-y-auto">
            {results.data.items.map((hit) => (
              <li key={hit.path}>
                <Link
                  to={hit.isDir ? explorerHref(hit.path) : explorerHref(parentPath(hit.path), hit.path)}
                  onClick={() => {
                    remember();
                    onDone();
                  }}
                  className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-surface-muted"
                  data-testid="fs-search-hit"
                  data-path={hit.path}
                >
                  <EntryIcon
                    entry={{ name: hit.name, path: hit.path, isDirectory: hit.isDir, size: hit.size }}
                    className="size-4 shrink-0"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate">{hit.name}</span>
                    <span className="block truncate font-mono text-xs text-muted-foreground">
                      {parentPath(hit.path)}
                    </span>
                  </span>
                  {!hit.isDir && (
                    <span className="shrink-0 text-xs text-muted-foreground">
                      {formatBytes(hit.size, i18n.language)}
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
