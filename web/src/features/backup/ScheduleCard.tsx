import { SettingGroup, type SettingKey } from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Play, Save } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { formatDateTime, formatRelative } from '../../lib/format';
// The settings form kit is shared by every page that edits settings (see settings-global/kit.tsx).
import { fieldProps, SwitchRow, useSettingsForm } from '../settings-global/kit';
import { BACKUP_SCHEDULE_QUERY_KEY, runScheduledBackup, useBackupSchedule } from './api';

const KEYS: SettingKey[] = [
  'backup_schedule_enabled',
  'backup_schedule_storage_config_id',
  'backup_schedule_interval_hours',
  'backup_schedule_keep',
];

/** Optional scheduled backups (spec §3): every N hours to a storage config, keeping the newest N. */
export function ScheduleCard() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const status = useBackupSchedule();
  const form = useSettingsForm(SettingGroup.GLOBAL, KEYS);
  const [running, setRunning] = useState(false);
  const target = fieldProps(form, 'backup_schedule_storage_config_id');
  const interval = fieldProps(form, 'backup_schedule_interval_hours');
  const keep = fieldProps(form, 'backup_schedule_keep');
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
    <section className="rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-6" data-testid="backup-schedule">
      <h2 className="flex items-center gap-2 text-base font-semibold">
        <CalendarClock className="size-4 text-muted-foreground" aria-hidden="true" />
        {t('adminPanel.backup.schedule.title')}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{t('adminPanel.backup.schedule.body')}</p>
      {form.query.isPending || status.isPending ? (
        <div className="mt-5 space-y-3">
          <Skeleton className="h-6 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : (
        <form noValidate onSubmit={(event) => void save(event)} className="mt-5 flex flex-col gap-5">
          {targets.length === 0 && <Alert tone="info">{t('adminPanel.backup.schedule.noTargets')}</Alert>}
          <SwitchRow
            form={form}
            settingKey="backup_schedule_enabled"
            label={t('adminPanel.backup.schedule.enabled')}
            help={t('adminPanel.backup.schedule.enabledHelp')}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id={target.id} label={t('adminPanel.backup.schedule.target')} error={target.error}>
              <Select
                {...target.aria}
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
            </Field>
            <Field id={interval.id} label={t('adminPanel.backup.schedule.interval')} error={interval.error}>
              <Input
                {...interval.aria}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={String(form.values.backup_schedule_interval_hours ?? '')}
                onChange={(event) => form.set('backup_schedule_interval_hours', event.target.value)}
              />
            </Field>
            <Field id={keep.id} label={t('adminPanel.backup.schedule.keep')} error={keep.error}>
              <Input
                {...keep.aria}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={String(form.values.backup_schedule_keep ?? '')}
                onChange={(event) => form.set('backup_schedule_keep', event.target.value)}
              />
            </Field>
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
    </section>
  );
}
