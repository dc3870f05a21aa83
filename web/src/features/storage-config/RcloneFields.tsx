import type { StorageConfigView } from '@clipnest/contract';
import { Field, fieldAria } from '../../components/ui/field';
import { Textarea } from '../../components/ui/input';
import { useTranslation } from '../../lib/useTranslation';

const EXAMPLE =
  '[onedrive]\ntype = onedrive\ntoken = {"access_token":"…","expiry":"…"}\ndrive_id = …\ndrive_type = personal';

/** The rclone type's field: one rclone.conf section (write-only), with how to make it on a desktop. */
export function RcloneFields({
  value,
  error,
  original,
  onChange,
}: {
  value: string;
  error: string | undefined;
  original: StorageConfigView | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const keeping = original !== undefined && original.has_secret;
  return (
    <>
      <div className="rounded-lg border border-border bg-muted/40 p-3 text-sm">
        <p className="font-medium">{t('files.storage.rclone.howTitle')}</p>
        <ol className="mt-2 list-decimal space-y-1 ps-5 text-muted-foreground">
          <li>{t('files.storage.rclone.step1')}</li>
          <li>
            {t('files.storage.rclone.step2')}
            <code className="mt-1 block w-fit max-w-full rounded bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-pre-wrap">
              rclone authorize "onedrive"
            </code>
          </li>
          <li>
            {t('files.storage.rclone.step3')}
            <code className="mt-1 block w-fit max-w-full rounded bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-pre-wrap">
              rclone config show NAME
            </code>
          </li>
        </ol>
        <p className="mt-2 text-xs text-muted-foreground">{t('files.storage.rclone.refused')}</p>
      </div>
      <Field
        id="sc-rclone_config"
        label={t('files.storage.fields.rcloneConfig')}
        error={error}
        help={
          keeping
            ? t('files.storage.rclone.keep', { name: original.rclone_remote ?? '', type: original.rclone_type ?? '' })
            : t('files.storage.rclone.help')
        }
      >
        <Textarea
          {...fieldAria('sc-rclone_config', error, true)}
          value={value}
          rows={7}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          className="font-mono text-xs"
          placeholder={keeping ? t('files.storage.rclone.keepPlaceholder') : EXAMPLE}
          onChange={(e) => onChange(e.target.value)}
        />
      </Field>
    </>
  );
}
