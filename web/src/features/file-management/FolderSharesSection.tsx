import type { ShareView } from '@clipnest/contract';
import { Files, FolderOpen, Trash2 } from 'lucide-react';
import { formatDateTime, formatRelative, isPast } from '../../lib/format';
import { useTranslation } from '../../lib/useTranslation';
import { LinkListSection } from './LinkListSection';

const KEY = ['folder-shares'] as const;

/** The folder shares the caller manages (the admin: everyone's): link, limits, delete. */
export function FolderSharesSection() {
  const { t, i18n } = useTranslation();
  return (
    <LinkListSection<ShareView>
      id="folder-shares"
      title={t('files.manage.folderShares')}
      queryKey={KEY}
      path="/shares"
      emptyIcon={FolderOpen}
      emptyTitle={t('files.manage.noFolderShares')}
      row={(s) => ({
        icon: s.type === 'bundle' ? Files : FolderOpen,
        name: s.name,
        openName: s.name,
        details: (
          <>
            <span className="font-mono">{s.type === 'bundle' ? t('files.manage.bundle') : s.path}</span> ·{' '}
            <span className="font-mono">{s.slug}</span> ·{' '}
            {t('files.manage.downloads', {
              count: s.downloads,
              max: s.max_downloads > 0 ? ` / ${s.max_downloads}` : '',
            })}{' '}
            ·{' '}
            {s.expires_at ? (
              <span title={formatDateTime(s.expires_at, i18n.language)}>
                {isPast(s.expires_at) ? t('files.manage.expired') : formatRelative(s.expires_at, i18n.language)}
              </span>
            ) : (
              t('files.expiry.never')
            )}
          </>
        ),
      })}
      end={{
        icon: Trash2,
        label: t('common.delete'),
        confirm: (s) => ({
          title: t('files.manage.deleteFolderShare', { name: s?.name ?? '' }),
          description: t('files.manage.deleteFolderShareBody'),
          confirmLabel: t('common.delete'),
        }),
      }}
    />
  );
}
