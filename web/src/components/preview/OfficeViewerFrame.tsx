import { cn } from '../../lib/cn';

/**
 * An Office document in the viewer the admin chose (Microsoft's or Google's), framed from its own origin with
 * no referrer, and a line saying whose viewer shows it.
 */
export function OfficeViewerFrame({
  url,
  title,
  note,
  className,
  testId,
}: {
  url: string;
  title: string;
  note: string;
  className?: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-col gap-2">
      <iframe
        src={url}
        title={title}
        data-testid={testId}
        className={cn('w-full rounded-lg border border-border bg-white', className)}
        referrerPolicy="no-referrer"
        sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
      />
      <p className="text-xs text-muted-foreground">{note}</p>
    </div>
  );
}

/** The viewer's name as the note says it. */
export function officeProviderName(provider: string): string {
  return provider === 'google' ? 'Google Docs' : 'Microsoft Office Online';
}
