import type { StorageConfigView } from '@clipnest/contract';
import { useTranslation } from '../../lib/useTranslation';

/** What a storage card shows of an sftp config: server, user and sign-in, remote folder, the pinned host key. */
export function SftpCardDetails({ config }: { config: StorageConfigView }) {
  const { t } = useTranslation();
  const auth = config.has_private_key
    ? t('files.storage.fields.authKey')
    : config.has_password
      ? t('files.storage.fields.authPassword')
      : '—';
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      <dt className="text-muted-foreground">{t('files.storage.fields.host')}</dt>
      <dd className="truncate font-mono text-xs leading-5" title={config.host}>
        {config.host ? `${config.host}:${config.port ?? 22}` : '—'}
      </dd>
      <dt className="text-muted-foreground">{t('files.storage.fields.sftpUsername')}</dt>
      <dd className="truncate font-mono text-xs leading-5">
        {config.username || '—'} · {auth}
      </dd>
      <dt className="text-muted-foreground">{t('files.storage.fields.rootFolder')}</dt>
      <dd className="truncate font-mono text-xs leading-5" title={config.root_folder}>
        {config.root_folder || '~'}
        {config.default_folder ? ` · ${config.default_folder}` : ''}
      </dd>
      <dt className="text-muted-foreground">{t('files.storage.fields.hostKeyShort')}</dt>
      <dd className="truncate font-mono text-xs leading-5" title={config.host_key_sha256}>
        {config.host_key_sha256 ? `SHA256:${config.host_key_sha256}` : t('files.storage.fields.hostKeyNone')}
      </dd>
    </dl>
  );
}
