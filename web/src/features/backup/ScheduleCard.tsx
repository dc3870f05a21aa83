import { SettingGroup, type SettingKey } from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Play, Save } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { SettingField, SettingInput, SettingsSection, SettingSwitch, useSettingsForm } from '../../components/settings';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { formatDateTime, formatRelative } from '../../lib/format';
import { BACKUP_SCHEDULE_QUERY_KEY, runScheduledBackup, useBackupSchedule } from './api';

const KEYS: SettingKey[] = [
  'backup_schedule_enabled',
  'backup_schedule_storage_config_id',
  'backup_schedule_interval_hours',
  'backup_schedule_keep',
];

/** The whole-number settings of the schedule, with their label keys. */
const COUNTS = [
  ['backup_schedule_interval_hours', 'interval'],
  ['backup_schedule_keep', 'keep'],
] as const;

/** Optional scheduled backups (spec §3): every N hours to a storage config, keeping the newest N. */
export function ScheduleCard() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const status = useBackupSchedule();
  const form = useSettingsForm(SettingGroup.GLOBAL, KEYS);
  const [running, setRunning] = useState(false);
  const targets = status.data?.targets ?? [];

  async function save(event: React.FormEvent) {
    if (await form.submit(event)) await client.invalidateQueries({ queryKey: BACKUP_SCHEDULE_QUERY_KEY });
  }

  async function runNow() {
    setRunning(true);
    try {
      client.setQueryData(BACKUP_SCHEDULE_QUERY_KEY, await runScheduledBackup());
      toast.success(t('adminPanel.backup.schedule.ran'));
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
      void status.refetch();
    } finally {
      setRunning(false);
    }
  }

  const last = status.data?.last_run;
  return (
    <SettingsSection
      title={t('adminPanel.backup.schedule.title')}
      description={t('adminPanel.backup.schedule.body')}
      icon={CalendarClock}
      data-testid="backup-schedule"
    >
      {form.query.isPending || status.isPending ? (
        <div className="space-y-3">
          <Skeleton className="h-6 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : (
        <form noValidate onSubmit={(event) => void save(event)} className="flex flex-col gap-5">
          {targets.length === 0 && <Alert tone="info">{t('adminPanel.backup.schedule.noTargets')}</Alert>}
          <SettingSwitch
            form={form}
            settingKey="backup_schedule_enabled"
            label={t('adminPanel.backup.schedule.enabled')}
            help={t('adminPanel.backup.schedule.enabledHelp')}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <SettingField
              form={form}
              settingKey="backup_schedule_storage_config_id"
              label={t('adminPanel.backup.schedule.target')}
            >
              {(aria) => (
                <Select
                  {...aria}
                  value={String(form.values.backup_schedule_storage_config_id ?? '')}
                  onChange={(event) => form.set('backup_schedule_storage_config_id', event.target.value)}
                >
                  <option value="">{t('adminPanel.backup.schedule.noTarget')}</option>
                  {targets.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.name}
                    </option>
                  ))}
                </Select>
              )}
            </SettingField>
            {COUNTS.map(([settingKey, label]) => (
              <SettingInput
                key={settingKey}
                form={form}
                settingKey={settingKey}
                label={t(`adminPanel.backup.schedule.${label}`)}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
              />
            ))}
          </div>
          <dl className="grid gap-2 rounded-lg bg-surface-muted px-3 py-2.5 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-xs text-muted-foreground">{t('adminPanel.backup.schedule.lastRun')}</dt>
              <dd data-testid="schedule-last-run">
                {!last
                  ? t('adminPanel.backup.schedule.never')
                  : last.error
                    ? t('adminPanel.backup.schedule.failed', { error: last.error })
                    : `${formatDateTime(last.at, i18n.language)} · ${last.file}`}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">{t('adminPanel.backup.schedule.nextRun')}</dt>
              <dd>
                {status.data?.next_run_at
                  ? formatRelative(status.data.next_run_at, i18n.language)
                  : !status.data?.storage_config_id
                    ? t('adminPanel.backup.schedule.chooseTarget')
                    : (status.data.problem ?? t('adminPanel.backup.schedule.off'))}
              </dd>
            </div>
          </dl>
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              type="button"
              variant="secondary"
              onClick={() => void runNow()}
              loading={running}
              disabled={form.dirty || !status.data?.storage_config_id}
            >
              {!running && <Play className="size-4" aria-hidden="true" />}
              {t('adminPanel.backup.schedule.runNow')}
            </Button>
            <Button type="submit" loading={form.saving} disabled={!form.dirty}>
              {!form.saving && <Save className="size-4" aria-hidden="true" />}
              {t('adminPanel.backup.schedule.save')}
            </Button>
          </div>
        </form>
      )}
    </SettingsSection>
  );
}
