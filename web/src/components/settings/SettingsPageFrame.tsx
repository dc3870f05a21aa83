import { RotateCcw, Save } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { PageHeader } from '../ui/page-header';
import { Skeleton } from '../ui/skeleton';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import type { SettingsForm } from './useSettingsForm';

function FormSkeleton() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true">
      {Array.from({ length: 2 }, (_, i) => (
        <div key={i} className="space-y-5 rounded-xl border border-border bg-surface p-6">
          <Skeleton className="h-5 w-40" />
          {Array.from({ length: 3 }, (_, j) => (
            <div key={j} className="space-y-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** Reset and save at the bottom of a settings form; it sticks to the screen while there are unsaved changes. */
function SaveBar({ form }: { form: SettingsForm }) {
  const { t } = useTranslation();
  return (
    <div
      className={cn(
        'z-10 -mx-4 flex items-center justify-end gap-2 border-t border-border bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4',
        form.dirty && 'sticky bottom-0 shadow-md',
      )}
    >
      <p className="me-auto text-xs text-muted-foreground" aria-live="polite">
        {form.dirty ? t('adminPanel.settings.unsaved') : t('adminPanel.settings.upToDate')}
      </p>
      <Button type="button" variant="secondary" onClick={form.reset} disabled={!form.dirty || form.saving}>
        <RotateCcw className="size-4" aria-hidden="true" />
        {t('adminPanel.settings.reset')}
      </Button>
      <Button type="submit" loading={form.saving} disabled={!form.dirty}>
        {!form.saving && <Save className="size-4" aria-hidden="true" />}
        {form.saving ? t('common.saving') : t('common.save')}
      </Button>
    </div>
  );
}

/** Page frame: heading, loading and error states, the form and its save bar. */
export function SettingsPageFrame({
  title,
  description,
  form,
  children,
}: {
  title: string;
  description: string;
  form: SettingsForm;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title={title} description={description} />
      {form.query.isPending ? (
        <FormSkeleton />
      ) : form.query.isError ? (
        <Alert tone="danger" title={t('adminPanel.settings.loadFailed')}>
          <p>{errorMessage(form.query.error)}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void form.query.refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : (
        <form noValidate onSubmit={(event) => void form.submit(event)} className="flex flex-col gap-6">
          {children}
          <SaveBar form={form} />
        </form>
      )}
    </div>
  );
}
