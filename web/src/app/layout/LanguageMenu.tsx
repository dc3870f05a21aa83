import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { Tooltip } from '../../components/ui/tooltip';
import { currentLanguage, setLanguage } from '../../lib/i18n';
import { isLanguage, LANGUAGES } from '../../lib/language';

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : currentLanguage();
  return (
    <DropdownMenu>
      <Tooltip content={t('language.label')}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="md" className="gap-1.5 px-2.5">
            <span className="sr-only">{`${t('language.label')}: `}</span>
            <Languages className="size-[18px]" aria-hidden="true" />
            <span className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              {t(`language.short.${lang}`)}
            </span>
          </Button>
        </DropdownMenuTrigger>
      </Tooltip>
      <DropdownMenuContent>
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={lang} onValueChange={(value) => isLanguage(value) && setLanguage(value)}>
          {LANGUAGES.map((code) => (
            <DropdownMenuRadioItem key={code} value={code} lang={code}>
              {t(`language.${code}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
