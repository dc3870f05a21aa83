import { Megaphone, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { SiteMarkdown } from '../../components/markdown/SiteMarkdown';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { hashString } from '../../lib/hash';
import { useSiteConfig } from '../../lib/siteConfig';
import { safeStorage, StorageKeys } from '../../lib/storageKeys';

/** Home page announcement; "don't show again" remembers this exact content by its hash. */
export function AnnouncementBanner() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const content = site.site_announcement_content.trim();
  const hash = useMemo(() => hashString(content), [content]);
  const [closedHash, setClosedHash] = useState<string | null>(() => safeStorage.get(StorageKeys.announcementDismissed));

  if (!site.site_announcement_enabled || !content || closedHash === hash) return null;

  return (
    <section
      aria-label={t('announcement.title')}
      className="mx-auto mb-6 flex w-full max-w-4xl gap-3 rounded-xl border border-warning-border bg-warning-soft px-4 py-3 text-warning-soft-foreground"
    >
      <Megaphone className="mt-1 size-[18px] shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">{t('announcement.title')}</p>
        <SiteMarkdown
          source={content}
          className="prose-quiet mt-0.5 break-words [&_a]:text-current [&_a:hover]:text-current"
        />
        <Button
          variant="ghost"
          size="sm"
          className="-ms-3 mt-1 text-warning-soft-foreground hover:bg-black/5 dark:hover:bg-white/10"
          onClick={() => {
            safeStorage.set(StorageKeys.announcementDismissed, hash);
            setClosedHash(hash);
          }}
        >
          {t('announcement.dontShowAgain')}
        </Button>
      </div>
      <IconButton
        label={t('announcement.close')}
        size="icon-sm"
        className="-me-2 -mt-1 text-warning-soft-foreground hover:bg-black/5 dark:hover:bg-white/10"
        onClick={() => setClosedHash(hash)}
      >
        <X className="size-4" />
      </IconButton>
    </section>
  );
}
