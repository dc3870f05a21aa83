import { Copy, QrCode as QrIcon } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useTranslation } from '../../lib/useTranslation';

/** "Copy link" and "QR code" beside a share's main action (labels only from the small breakpoint up). */
export function LinkButtons({ onCopy, onQr }: { onCopy: () => void; onQr: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Button variant="secondary" onClick={onCopy} aria-label={t('files.view.copyLink')}>
        <Copy className="size-4" aria-hidden="true" />
        <span className="hidden sm:inline">{t('files.view.copyLink')}</span>
      </Button>
      <Button variant="secondary" onClick={onQr} aria-label={t('files.view.qr')}>
        <QrIcon className="size-4" aria-hidden="true" />
        <span className="hidden sm:inline">{t('files.view.qr')}</span>
      </Button>
    </>
  );
}
