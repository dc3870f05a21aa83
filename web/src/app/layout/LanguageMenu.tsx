import { Languages } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Button, type ButtonProps } from '../../components/ui/button';
import { Tooltip } from '../../components/ui/tooltip';
import { currentLanguage } from '../../lib/i18n';

const HeaderMenus = () => import('./HeaderMenus');
const LanguageMenuDropdown = lazy(() => HeaderMenus().then((m) => ({ default: m.LanguageMenuDropdown })));

export function LanguageButton(props: ButtonProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : currentLanguage();
  return (
    <Button variant="ghost" size="md" className="gap-1.5 px-2.5" aria-haspopup="menu" {...props}>
      <span className="sr-only">{`${t('language.label')}: `}</span>
      <Languages className="size-[18px]" aria-hidden="true" />
      <span className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {t(`language.short.${lang}`)}
      </span>
    </Button>
  );
}

/** The dropdown and its Radix menu load when it is first opened (or hovered); until then a plain button. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const preload = () => void HeaderMenus();
  const button = (
    <Tooltip content={t('language.label')}>
      <LanguageButton
        aria-expanded={false}
        onClick={() => setOpened(true)}
        onPointerEnter={preload}
        onFocus={preload}
      />
    </Tooltip>
  );
  if (!opened) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenuDropdown />
    </Suspense>
  );
}
