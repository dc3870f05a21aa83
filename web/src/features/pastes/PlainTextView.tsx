import { useMemo } from 'react';
import { cn } from '../../lib/cn';

/** Plain text with line numbers; long lines scroll sideways so numbers stay aligned. */
export function PlainTextView({ text, className, label }: { text: string; className?: string; label: string }) {
  const numbers = useMemo(() => {
    const count = text.split('\n').length;
    let out = '';
    for (let i = 1; i <= count; i++) out += i === count ? String(i) : `${i}\n`;
    return out;
  }, [text]);
  return (
    <div
      className={cn(
        'flex overflow-hidden rounded-lg border border-border bg-surface-muted/50 font-mono text-[13px] leading-6',
        className,
      )}
      data-testid="plain-text"
    >
      <pre
        aria-hidden="true"
        className="shrink-0 select-none border-e border-border bg-surface-muted px-3 py-3 text-end text-muted-foreground/80"
      >
        {numbers}
      </pre>
      <pre
        className="min-w-0 flex-1 overflow-x-auto whitespace-pre px-4 py-3 text-foreground"
        tabIndex={0}
        aria-label={label}
      >
        {text}
      </pre>
    </div>
  );
}
