import { useTranslation } from '../../lib/useTranslation';
import { LazyQrCode as QrCode } from '../../components/share/LazyQrCode';
import { Dialog, DialogContent } from '../../components/ui/dialog';

/** The file link's QR code in a dialog: a chunk of its own, loaded when first opened. */
export default function QrDialog({
  link,
  filename,
  open,
  onOpenChange,
}: {
  link: string;
  filename: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('files.view.qrTitle')} description={t('files.view.qrBody')}>
        <div className="flex flex-col items-center gap-3">
          <QrCode value={link} size={220} label={t('files.view.qrLabel', { name: filename })} />
          <code className="break-all text-center font-mono text-xs text-muted-foreground">{link}</code>
        </div>
      </DialogContent>
    </Dialog>
  );
}
