import type { FileView, ShareView } from '@clipnest/contract';
import { Copy } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { ChoiceChips } from '../../../components/ui/choice-chips';
import { Field, fieldAria } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { copyText } from '../../../lib/clipboard';

// The QR code's encoder loads when a share's link is shown, not with the explorer (its JS budget).
const QrCode = lazy(() => import('../../../components/share/QrCode').then((m) => ({ default: m.QrCode })));

/** A link to show with copy and (for shares) a QR code: fs/create-share and fs/file-link answers. */
export function LinkDialog({
  link,
  onClose,
}: {
  link: { title: string; url: string; share?: FileView | ShareView } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const copy = async () => {
    if (link && (await copyText(link.url))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };
  return (
    <Dialog open={link !== null} onOpenChange={(open) => !open && onClose()}>
      {link && (
        <DialogContent title={link.title}>
          <div className="flex flex-col items-center gap-4">
            <div className="flex w-full gap-2">
              <Input readOnly value={link.url} aria-label={link.title} data-testid="fs-link" className="font-mono" />
              <Button variant="secondary" onClick={() => void copy()}>
                <Copy className="size-4" aria-hidden="true" />
                {t('common.copy')}
              </Button>
            </div>
            {link.share && (
              <Suspense fallback={<div className="size-40" aria-hidden="true" />}>
                <QrCode value={link.url} label={t('fs.explorer.qrLabel')} />
              </Suspense>
            )}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}

export interface ShareChoices {
  password?: string;
  expires_in?: number;
  max_views?: number;
  /** A folder share counts downloads (files and zips) instead of views. */
  max_downloads?: number;
}

/** Share expiry presets in hours (spec §9), 0 = never. */
const EXPIRY: { hours: number; key: 'hour' | 'day' | 'week' | 'month' | 'never' }[] = [
  { hours: 1, key: 'hour' },
  { hours: 24, key: 'day' },
  { hours: 168, key: 'week' },
  { hours: 720, key: 'month' },
  { hours: 0, key: 'never' },
];

/** "Share" from the explorer: the share options of an upload (password, expiry, max views) before the link. */
export function ShareOptionsDialog({
  name,
  folder = false,
  busy,
  onSubmit,
  onClose,
}: {
  /** The file or folder to share; null closes the dialog. */
  name: string | null;
  /** A folder: its link opens a page to browse it, limited by downloads. */
  folder?: boolean;
  busy: boolean;
  onSubmit: (choices: ShareChoices) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={name !== null} onOpenChange={(open) => !open && onClose()}>
      {name !== null && (
        <DialogContent
          title={t(folder ? 'fs.explorer.shareFolderTitle' : 'fs.explorer.shareTitle', { name })}
          description={t(folder ? 'fs.share.folderDescription' : 'fs.share.description')}
        >
          <ShareOptionsBody folder={folder} busy={busy} onSubmit={onSubmit} onClose={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ShareOptionsBody({
  folder,
  busy,
  onSubmit,
  onClose,
}: {
  folder: boolean;
  busy: boolean;
  onSubmit: (choices: ShareChoices) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState('0');
  const [maxViews, setMaxViews] = useState('');
  const viewsError = maxViews.trim() && !/^\d+$/.test(maxViews.trim()) ? t('fs.share.maxViewsInvalid') : undefined;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (viewsError) return;
        onSubmit({
          ...(password ? { password } : {}),
          ...(Number(expiry) > 0 ? { expires_in: Number(expiry) } : {}),
          ...(Number(maxViews) > 0 ? { [folder ? 'max_downloads' : 'max_views']: Number(maxViews) } : {}),
        });
      }}
    >
      <Field id="fs-share-expiry" label={t('fs.share.expiry')}>
        <ChoiceChips
          id="fs-share-expiry"
          label={t('fs.share.expiry')}
          value={expiry}
          onChange={setExpiry}
          options={EXPIRY.map((e) => ({ value: String(e.hours), label: t(`fs.share.expiryOptions.${e.key}`) }))}
        />
      </Field>
      <Field
        id="fs-share-password"
        label={t('fs.share.password')}
        optional={t('common.optional')}
        help={t(folder ? 'fs.share.folderPasswordHelp' : 'fs.share.passwordHelp')}
      >
        <PasswordInput
          id="fs-share-password"
          value={password}
          onChange={setPassword}
          describedBy="fs-share-password-help"
        />
      </Field>
      <Field
        id="fs-share-max-views"
        label={t(folder ? 'fs.share.maxDownloads' : 'fs.share.maxViews')}
        optional={t('common.optional')}
        help={t(folder ? 'fs.share.maxDownloadsHelp' : 'fs.share.maxViewsHelp')}
        error={viewsError}
      >
        <Input
          {...fieldAria('fs-share-max-views', viewsError, true)}
          inputMode="numeric"
          placeholder="0"
          value={maxViews}
          onChange={(event) => setMaxViews(event.target.value)}
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={busy}>
          {t('fs.share.create')}
        </Button>
      </div>
    </form>
  );
}
