import { useTranslation } from '../../lib/useTranslation';
import { LazyQrCode as QrCode } from '../../components/share/LazyQrCode';
import { Dialog, DialogContent } from '../../components/ui/dialog';

/** The paste's QR code in a dialog: a chunk of its own, loaded when first opened. */
export default function QrDialog({
  url,
  open,
  onOpenChange,
}: {
  url: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('paste.view.qrTitle')} description={t('paste.view.qrBody')} className="sm:max-w-sm">
        <div className="flex flex-col items-center gap-3 py-2">
          <QrCode value={url} size={220} label={t('paste.result.qrLabel')} />
          <p className="break-all text-center font-mono text-xs text-muted-foreground">{url}</p>
        </div>
      </DialogContent>
    </Dialog>
  );
}
