import { hasPermission, Permission } from '@clipnest/contract/permissions';
import { SHAREX_KIND_PERMISSION, type SharexKind, type SharexUploader } from '@clipnest/contract/integrations';
import type { ApiKeyView } from '@clipnest/contract';
import { Copy, Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { IconButton } from '../../components/ui/icon-button';
import { api, errorMessage, getApiBaseUrl } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { downloadBlob } from '../../lib/downloadBlob';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';

/** One-line commands that upload with the key (what the dialog shows and copies). */
export function uploadSnippets(origin: string, key: string) {
  const auth = `-H "Authorization: ApiKey ${key}"`;
  return {
    curl: `curl ${auth} -F file=@photo.png ${origin}/api/upload`,
    flameshot: `flameshot gui --raw | curl ${auth} -F "file=@-;filename=screenshot.png" ${origin}/api/upload`,
  };
}

function Snippet({ label, text, testId }: { label: string; text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium">{label}</div>
      <div className="flex items-start gap-2 rounded-lg border border-border bg-surface-muted p-2 ps-3">
        <code className="min-w-0 flex-1 break-all font-mono text-xs" data-testid={testId}>
          {text}
        </code>
        <IconButton
          label={t('keys.integrations.copy', { what: label })}
          variant="ghost"
          onClick={() =>
            void copyText(text).then((ok) =>
              ok ? toast.success(t('common.copied')) : toast.error(t('common.copyFailed')),
            )
          }
        >
          <Copy className="size-4" />
        </IconButton>
      </div>
    </div>
  );
}

/** "Use this key in other apps": ShareX uploaders to download, curl and Flameshot one-liners, an iOS Shortcut. */
export function IntegrationsDialog({ apiKey, onClose }: { apiKey: ApiKeyView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<SharexKind | null>(null);
  const origin = getApiBaseUrl();

  const download = async (key: ApiKeyView, kind: SharexKind) => {
    setBusy(kind);
    try {
      const uploader = await api.get<SharexUploader>('/integrations/sharex', {
        query: { kind },
        auth: { apiKey: key.key },
      });
      const blob = new Blob([`${JSON.stringify(uploader, null, 2)}\n`], { type: 'application/json' });
      downloadBlob(blob, `clipnest-${kind}.sxcu`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const snippets = apiKey ? uploadSnippets(origin, apiKey.key) : null;
  const canShare = apiKey ? hasPermission(apiKey.permissions, Permission.FILE_SHARE) : false;
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('keys.integrations.title', { name: apiKey?.name ?? '' })}
        description={t('keys.integrations.description')}
        footer={<Button onClick={onClose}>{t('common.done')}</Button>}
      >
        {apiKey && snippets && (
          <div className="space-y-5" data-testid="key-integrations">
            <section className="space-y-2">
              <h3 className="text-sm font-semibold">ShareX</h3>
              <p className="text-sm text-muted-foreground">{t('keys.integrations.sharexHelp')}</p>
              <div className="flex flex-wrap gap-2">
                {(['file', 'text'] as const).map((kind) => {
                  const allowed = hasPermission(apiKey.permissions, SHAREX_KIND_PERMISSION[kind]);
                  return (
                    <Button
                      key={kind}
                      variant="secondary"
                      disabled={!allowed || busy !== null}
                      onClick={() => void download(apiKey, kind)}
                      title={allowed ? undefined : t(`keys.integrations.needs.${kind}`)}
                    >
                      <Download className="size-4" />
                      {t(`keys.integrations.sharex.${kind}`)}
                    </Button>
                  );
                })}
              </div>
            </section>
            {canShare ? (
              <>
                <Snippet label="curl" text={snippets.curl} testId="snippet-curl" />
                <Snippet label="Flameshot" text={snippets.flameshot} testId="snippet-flameshot" />
              </>
            ) : (
              <p className="text-sm text-muted-foreground">{t('keys.integrations.needs.file')}</p>
            )}
            {canShare && (
              <section className="space-y-2">
                <h3 className="text-sm font-semibold">{t('keys.integrations.shortcutTitle')}</h3>
                <ol className="list-decimal space-y-1 ps-5 text-sm" data-testid="shortcut-recipe">
                  <li>{t('keys.integrations.shortcut1')}</li>
                  <li>
                    {t('keys.integrations.shortcut2')}{' '}
                    <code className="break-all font-mono text-xs">{origin}/api/upload</code>
                  </li>
                  <li>
                    {t('keys.integrations.shortcut3')}{' '}
                    <code className="break-all font-mono text-xs">Authorization: ApiKey {apiKey.key}</code>
                  </li>
                  <li>{t('keys.integrations.shortcut4')}</li>
                  <li>{t('keys.integrations.shortcut5')}</li>
                </ol>
              </section>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
