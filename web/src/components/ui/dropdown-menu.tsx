import { Check } from 'lucide-react';
import { DropdownMenu as RadixMenu } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export const DropdownMenu = RadixMenu.Root;
export const DropdownMenuTrigger = RadixMenu.Trigger;
export const DropdownMenuRadioGroup = RadixMenu.RadioGroup;

export function DropdownMenuContent({
  children,
  align = 'end',
  className,
}: {
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  className?: string;
}) {
  return (
    <RadixMenu.Portal>
      <RadixMenu.Content
        align={align}
        sideOffset={6}
        collisionPadding={8}
        className={cn(
          // Never taller than the room the window leaves: a long menu (the gallery settings) scrolls on short screens.
          'z-50 max-h-(--radix-dropdown-menu-content-available-height) min-w-44 overflow-y-auto overscroll-contain rounded-lg border border-border bg-surface p-1 text-foreground shadow-lg data-[state=open]:animate-pop-in',
          className,
        )}
      >
        {children}
      </RadixMenu.Content>
    </RadixMenu.Portal>
  );
}

const itemClasses =
  'relative flex min-h-9 cursor-default select-none items-center gap-2 rounded-md px-2.5 text-sm outline-none pointer-coarse:min-h-10 data-[highlighted]:bg-surface-hover data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0';

export function DropdownMenuItem({
  className,
  destructive,
  ...props
}: ComponentProps<typeof RadixMenu.Item> & { destructive?: boolean }) {
  return (
    <RadixMenu.Item
      className={cn(
        itemClasses,
        destructive && 'text-destructive-soft-foreground data-[highlighted]:bg-destructive-soft',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof RadixMenu.RadioItem>) {
  return (
    <RadixMenu.RadioItem className={cn(itemClasses, 'pe-8', className)} {...props}>
      {children}
      <RadixMenu.ItemIndicator className="absolute end-2.5">
        <Check />
      </RadixMenu.ItemIndicator>
    </RadixMenu.RadioItem>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return (
    <RadixMenu.Label className="px-2.5 py-1.5 text-xs font-medium text-muted-foreground">{children}</RadixMenu.Label>
  );
}

export function DropdownMenuSeparator() {
  return <RadixMenu.Separator className="-mx-1 my-1 h-px bg-border" />;
}
