import type { FileView } from '@clipnest/contract';
import { Copy } from 'lucide-react';
import { useTranslation } from '../../../lib/useTranslation';
import { toast } from '../../../lib/toast';
import { QrCode } from '../../../components/share/QrCode';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { copyText } from '../../../lib/clipboard';

/** A link to show with copy and (for shares) a QR code: fs/create-share and fs/file-link answers. */
export function LinkDialog({
  link,
  onClose,
}: {
  link: { title: string; url: string; share?: FileView } | null;
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
            {link.share && <QrCode value={link.url} label={t('fs.explorer.qrLabel')} />}
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
