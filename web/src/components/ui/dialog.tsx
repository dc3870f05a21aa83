import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { cn } from '../../lib/cn';
import { IconButton } from './icon-button';

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

const overlayClasses = 'fixed inset-0 z-40 bg-black/45 backdrop-blur-[2px] data-[state=open]:animate-fade-in';

/** A centred dialog; on phones it becomes a full-width sheet from the bottom. */
export function DialogContent({
  title,
  description,
  children,
  footer,
  className,
  onOpenAutoFocus,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  onOpenAutoFocus?: (event: Event) => void;
}) {
  const { t } = useTranslation();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className={overlayClasses} />
      <RadixDialog.Content
        onOpenAutoFocus={onOpenAutoFocus}
        className={cn(
          'fixed z-50 flex max-h-[92dvh] w-full flex-col border border-border bg-surface text-foreground shadow-lg outline-none',
          'inset-x-0 bottom-0 rounded-t-2xl sm:inset-auto sm:left-1/2 sm:top-1/2 sm:max-h-[88dvh] sm:w-[calc(100vw-2rem)] sm:max-w-lg sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl',
          'data-[state=open]:animate-pop-in',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
      >
        <div className="border-b border-border py-4 pe-14 ps-5">
          <RadixDialog.Title className="text-base font-semibold leading-tight">{title}</RadixDialog.Title>
          {description && (
            <RadixDialog.Description className="mt-1 text-sm text-muted-foreground">
              {description}
            </RadixDialog.Description>
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        {footer && (
          <div className="flex flex-col-reverse gap-2 border-t border-border px-5 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:flex-row sm:justify-end">
            {footer}
          </div>
        )}
        {/* Last in DOM order so that opening the dialog focuses the first field, not "close". */}
        <RadixDialog.Close asChild>
          <IconButton label={t('common.close')} size="icon-sm" className="absolute end-3 top-3">
            <X className="size-4" />
          </IconButton>
        </RadixDialog.Close>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/** A side sheet (mobile menus). With `hideTitle` the title is for screen readers only. */
export function DrawerContent({
  title,
  children,
  side = 'end',
  hideTitle = false,
}: {
  title: ReactNode;
  children: ReactNode;
  side?: 'start' | 'end';
  hideTitle?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className={overlayClasses} />
      <RadixDialog.Content
        aria-describedby={undefined}
        className={cn(
          'fixed inset-y-0 z-50 flex w-[min(20rem,86vw)] flex-col border-border bg-surface text-foreground shadow-lg outline-none',
          side === 'end'
            ? 'end-0 border-s data-[state=open]:animate-slide-in-end'
            : 'start-0 border-e data-[state=open]:animate-slide-in-start',
        )}
      >
        {hideTitle ? (
          <RadixDialog.Title className="sr-only">{title}</RadixDialog.Title>
        ) : (
          <div className="flex h-14 shrink-0 items-center border-b border-border pe-14 ps-4">
            <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
          </div>
        )}
        <div
          className={cn(
            'min-h-0 flex-1 overflow-y-auto p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]',
            hideTitle && 'pt-4',
          )}
        >
          {children}
        </div>
        {/* Last in DOM order: opening the drawer focuses its first link, not "close". */}
        <RadixDialog.Close asChild>
          <IconButton label={t('nav.closeMenu')} size="icon" className="absolute end-2 top-2">
            <X className="size-5" />
          </IconButton>
        </RadixDialog.Close>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}
