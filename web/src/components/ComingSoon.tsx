import { ArrowLeft, Sparkles, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/useTranslation';
import { Link } from 'wouter';
import { cn } from '../lib/cn';
import { Badge } from './ui/badge';
import { buttonClasses } from './ui/button';

/** An honest placeholder for screens that later issues build. */
export function ComingSoon({
  icon: Icon,
  title,
  description,
  showHomeLink = true,
  actions,
  className,
}: {
  icon: LucideIcon;
  title: ReactNode;
  description: ReactNode;
  showHomeLink?: boolean;
  actions?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <section
      className={cn(
        'relative overflow-hidden rounded-2xl border border-border bg-surface px-6 py-10 shadow-sm sm:px-10 sm:py-14',
        className,
      )}
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -end-16 -top-16 size-56 rounded-full bg-primary-soft opacity-70 blur-3xl"
      />
      <div className="relative flex max-w-xl flex-col items-start gap-4">
        <div className="grid size-12 place-items-center rounded-xl bg-primary-soft text-primary-soft-foreground">
          <Icon className="size-6" aria-hidden="true" />
        </div>
        <Badge tone="primary">
          <Sparkles aria-hidden="true" />
          {t('comingSoon.badge')}
        </Badge>
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          <p className="mt-2 text-[15px] leading-relaxed text-muted-foreground">{description}</p>
          <p className="mt-2 text-sm text-muted-foreground">{t('comingSoon.body')}</p>
        </div>
        {(showHomeLink || actions) && (
          <div className="mt-2 flex flex-wrap gap-2">
            {actions}
            {showHomeLink && (
              <Link to="/" className={buttonClasses('secondary')}>
                <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
                {t('comingSoon.backHome')}
              </Link>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
