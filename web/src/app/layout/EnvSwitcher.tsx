import { Server } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { normalizeServerUrl, readEnvState, switchServer } from '../../lib/envSwitch';
import { useTranslation } from '../../lib/useTranslation';

/**
 * The environment switcher (spec §1): a small button at the bottom-left corner naming the server in use, and a
 * dialog to point the app at another server (or back at this one). Rendered by the shell only with
 * `?showEnvSwitcher` in the address and for the admin (or while another server is chosen).
 */
export default function EnvSwitcher() {
  const { t } = useTranslation();
  const env = readEnvState();
  const current = env.runtime ?? env.saved ?? env.origin;
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<'this' | 'other'>(env.saved ? 'other' : 'this');
  const [url, setUrl] = useState(env.saved ?? '');
  const [error, setError] = useState<string | undefined>();
  const locked = env.runtime !== null;

  function apply() {
    if (choice === 'this') {
      switchServer(null);
    } else {
      const server = normalizeServerUrl(url);
      if (!server) {
        setError(t('envSwitcher.invalidUrl'));
        return;
      }
      switchServer(server);
    }
    window.location.reload();
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid="env-switcher"
        className="fixed bottom-3 start-3 z-30 flex max-w-[calc(100vw-1.5rem)] items-center gap-2 rounded-full border border-border bg-surface px-3 py-2 text-xs text-foreground shadow-md hover:bg-surface-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:max-w-sm"
      >
        <Server className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="shrink-0 font-medium">{t('envSwitcher.button')}</span>
        <span className="min-w-0 truncate font-mono text-muted-foreground" data-testid="env-switcher-current">
          {env.saved || locked ? current : t('envSwitcher.thisSite')}
        </span>
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={t('envSwitcher.title')}
          description={t('envSwitcher.description')}
          footer={
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </Button>
              <Button onClick={apply} disabled={locked}>
                {t('envSwitcher.apply')}
              </Button>
            </>
          }
        >
          <div className="flex flex-col gap-4">
            <p className="text-sm">
              {t('envSwitcher.current')}{' '}
              <span className="break-all font-mono text-[13px]" data-testid="env-switcher-url">
                {current}
              </span>
            </p>
            {locked ? (
              <Alert tone="info">{t('envSwitcher.runtimeLocked')}</Alert>
            ) : (
              <>
                <ChoiceChips
                  value={choice}
                  onChange={(next) => {
                    setChoice(next);
                    setError(undefined);
                  }}
                  label={t('envSwitcher.title')}
                  options={[
                    { value: 'this', label: t('envSwitcher.useThisSite', { origin: env.origin }) },
                    { value: 'other', label: t('envSwitcher.useOther') },
                  ]}
                />
                {choice === 'other' && (
                  <Field
                    id="env-server-url"
                    label={t('envSwitcher.urlLabel')}
                    help={t('envSwitcher.urlHelp')}
                    error={error}
                  >
                    <Input
                      id="env-server-url"
                      type="url"
                      inputMode="url"
                      autoComplete="url"
                      spellCheck={false}
                      placeholder="https://paste.example.com"
                      value={url}
                      aria-invalid={error ? true : undefined}
                      onChange={(event) => {
                        setUrl(event.target.value);
                        setError(undefined);
                      }}
                      onKeyDown={(event) => event.key === 'Enter' && apply()}
                    />
                  </Field>
                )}
                <Alert tone="warning">{t('envSwitcher.signOutNote')}</Alert>
              </>
            )}
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
