import { Search } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Input } from './input';

/** Search box with a leading magnifier; `label` is both placeholder and accessible name. */
export function SearchField({
  value,
  onValueChange,
  label,
  className,
}: {
  value: string;
  onValueChange: (value: string) => void;
  label: string;
  /** Classes for the wrapper, e.g. its max width. */
  className?: string;
}) {
  return (
    <div className={cn('relative w-full', className)}>
      <Search
        className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <Input
        type="search"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        placeholder={label}
        aria-label={label}
        className="ps-9"
      />
    </div>
  );
}
