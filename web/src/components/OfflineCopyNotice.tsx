import { CloudOff } from 'lucide-react';
import { useTranslation } from '../lib/useTranslation';
import { formatDateTime } from '../lib/format';
import { offlineCachedAt } from '../lib/offline/readThrough';

/** Says a screen shows the copy kept in this browser (offline reading), with when it was saved. */
export function OfflineCopyNotice({ value }: { value: unknown }) {
  const { t, i18n } = useTranslation();
  const cachedAt = offlineCachedAt(value);
  if (cachedAt === undefined) return null;
  return (
    <p
      className="mx-auto mb-3 flex w-full max-w-4xl items-center gap-2 rounded-lg bg-warning-soft px-3 py-2 text-sm text-warning-soft-foreground"
      data-testid="offline-copy"
    >
      <CloudOff className="size-4 shrink-0" aria-hidden="true" />
      {t('pwa.offlineCopy', { time: formatDateTime(new Date(cachedAt).toISOString(), i18n.language) })}
    </p>
  );
}
