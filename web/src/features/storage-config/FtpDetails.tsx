import type { StorageConfigView } from '@clipnest/contract';
import { useTranslation } from '../../lib/useTranslation';

/** An ftp config's card lines: server and port, TLS mode, user, default folder. */
export function FtpDetails({ config }: { config: StorageConfigView }) {
  const { t } = useTranslation();
  const address = config.host
    ? `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port ?? 21}`
    : '—';
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      <dt className="text-muted-foreground">{t('files.storage.fields.host')}</dt>
      <dd className="truncate font-mono text-xs leading-5" title={address}>
        {address}
      </dd>
      <dt className="text-muted-foreground">{t('files.storage.fields.tls')}</dt>
      <dd className="truncate text-xs leading-5">{t(`files.storage.fields.tlsMode.${config.tls ?? 'explicit'}`)}</dd>
      <dt className="text-muted-foreground">{t('files.storage.fields.username')}</dt>
      <dd className="truncate font-mono text-xs leading-5">
        {config.username || 'anonymous'} · {config.has_secret ? '••••' : '—'}
      </dd>
      {config.default_folder && (
        <>
          <dt className="text-muted-foreground">{t('files.storage.fields.defaultFolder')}</dt>
          <dd className="truncate font-mono text-xs leading-5">{config.default_folder}</dd>
        </>
      )}
    </dl>
  );
}
