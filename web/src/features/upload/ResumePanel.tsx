import { History, RotateCcw, ShieldCheck, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { Progress } from '../../components/ui/progress';
import { api } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import {
  isStale,
  matchesRecord,
  onResumeStoreChange,
  resumeStore,
  type ResumeRecord,
} from '../../lib/uploader/resumeStore';
import { E2EE_SOURCE_KIND } from './useUploadQueue';

/** Unfinished multipart uploads remembered in IndexedDB (stale ones are dropped). */
export function useResumeRecords(): ResumeRecord[] {
  const [records, setRecords] = useState<ResumeRecord[]>([]);
  useEffect(() => {
    let alive = true;
    const load = async () => {
      const store = resumeStore();
      const all = await store.list();
      const fresh: ResumeRecord[] = [];
      for (const record of all) {
        if (isStale(record)) await store.delete(record.key);
        else fresh.push(record);
      }
      if (alive) setRecords(fresh.sort((a, b) => b.updated_at - a.updated_at));
    };
    void load();
    const off = onResumeStoreChange(() => void load());
    return () => {
      alive = false;
      off();
    };
  }, []);
  return records;
}

function uploadedBytes(record: ResumeRecord): number {
  let bytes = 0;
  for (const n of record.parts_done) {
    bytes += n < record.part_count ? record.part_size : record.size - record.part_size * (record.part_count - 1);
  }
  return Math.min(record.size, bytes);
}

function ResumeRow({
  record,
  onResume,
}: {
  record: ResumeRecord;
  onResume: (file: File, record: ResumeRecord) => void;
}) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [discarding, setDiscarding] = useState(false);
  const done = uploadedBytes(record);
  const percent = record.size > 0 ? (done / record.size) * 100 : 0;

  const picked = (files: FileList | null) => {
    const file = files?.[0];
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!matchesRecord(file, record)) {
      toast.error(
        t('files.upload.multipart.notSameFile', { name: record.name, size: formatBytes(record.size, i18n.language) }),
      );
      return;
    }
    onResume(file, record);
  };

  const discard = async () => {
    setDiscarding(true);
    await api.post('/upload/multipart/abort', { file_id: record.file_id }).catch(() => undefined);
    await resumeStore().delete(record.key);
    toast.success(t('files.upload.multipart.discarded', { name: record.name }));
  };

  return (
    <li className="flex flex-col gap-2 rounded-lg border border-border bg-surface p-3" data-testid="resume-item">
      <div className="flex items-start gap-3">
        <div className="grid size-10 shrink-0 place-items-center rounded-lg bg-warning-soft text-warning-soft-foreground">
          <History className="size-5" aria-hidden="true" />
        </div>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={record.name}>
            {record.name}
          </p>
          {record.source?.kind === E2EE_SOURCE_KIND && (
            <Badge tone="success" className="mt-1" data-testid="resume-encrypted">
              <ShieldCheck aria-hidden="true" />
              {t('files.upload.options.encrypted')}
            </Badge>
          )}
          <p className="text-xs tabular-nums text-muted-foreground">
            {t('files.upload.multipart.savedProgress', {
              done: formatBytes(done, i18n.language),
              total: formatBytes(record.size, i18n.language),
              parts: record.parts_done.length,
              count: record.part_count,
            })}
          </p>
        </div>
        <IconButton
          label={t('files.upload.multipart.discard', { name: record.name })}
          size="icon-sm"
          onClick={() => void discard()}
          disabled={discarding}
        >
          <X className="size-4" />
        </IconButton>
      </div>
      <Progress
        value={percent}
        tone="muted"
        label={t('files.upload.multipart.savedLabel', { name: record.name })}
        valueText={`${Math.round(percent)}%`}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">{t('files.upload.multipart.pickAgain')}</p>
        <Button variant="secondary" size="sm" onClick={() => input.current?.click()} disabled={discarding}>
          <RotateCcw className="size-4" aria-hidden="true" />
          {t('files.upload.multipart.resume')}
        </Button>
        <input
          ref={input}
          type="file"
          className="hidden"
          data-testid="resume-input"
          aria-label={t('files.upload.multipart.resumeInput', { name: record.name })}
          onChange={(event) => picked(event.target.files)}
        />
      </div>
    </li>
  );
}

/** "Unfinished uploads": choose the same file again to continue where it stopped (spec §4 Resume). */
export function ResumePanel({
  records,
  onResume,
}: {
  records: ResumeRecord[];
  onResume: (file: File, record: ResumeRecord) => void;
}) {
  const { t } = useTranslation();
  if (records.length === 0) return null;
  return (
    <section aria-labelledby="resume-title" className="flex flex-col gap-2" data-testid="resume-panel">
      <h2 id="resume-title" className="text-sm font-semibold">
        {t('files.upload.multipart.resumeTitle', { count: records.length })}
      </h2>
      <ul className="flex flex-col gap-2">
        {records.map((record) => (
          <ResumeRow key={record.key} record={record} onResume={onResume} />
        ))}
      </ul>
    </section>
  );
}
