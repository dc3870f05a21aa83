import { useTranslation } from '../../lib/useTranslation';
import { cn } from '../../lib/cn';
import { formatDateTime, formatRelative } from '../../lib/format';
import { Tooltip } from './tooltip';

/** "in 3 days" / "5 minutes ago", with the full date and time in a tooltip (also on keyboard focus). */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  return (
    <Tooltip content={formatDateTime(iso, i18n.language)}>
      <span tabIndex={0} className={cn('rounded-sm', className)}>
        {formatRelative(iso, i18n.language)}
      </span>
    </Tooltip>
  );
}
