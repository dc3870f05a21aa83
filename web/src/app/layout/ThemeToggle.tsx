import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslation } from '../../lib/useTranslation';
import { IconButton } from '../../components/ui/icon-button';
import { nextThemeMode, setThemeMode, useThemeMode } from '../../lib/theme';

const ICONS = { auto: Monitor, light: Sun, dark: Moon } as const;

/** Cycles auto → light → dark (spec §1), saved as `themeMode`. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  const next = nextThemeMode(mode);
  const Icon = ICONS[mode];
  return (
    <IconButton
      label={t('theme.toggle', { mode: t(`theme.${mode}`), next: t(`theme.${next}`) })}
      data-theme-mode={mode}
      data-testid="theme-toggle"
      onClick={() => setThemeMode(next)}
    >
      <Icon className="size-[18px]" />
    </IconButton>
  );
}
