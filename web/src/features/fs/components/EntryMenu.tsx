import type { LucideIcon } from 'lucide-react';
import { Fragment } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';

export interface MenuAction {
  id: string;
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
  destructive?: boolean;
}

/** The context menu at a point (right-click or long-press): a menu anchored to an invisible trigger there. */
export function EntryMenu({
  at,
  actions,
  onClose,
}: {
  at: { x: number; y: number } | null;
  actions: MenuAction[];
  onClose: () => void;
}) {
  return (
    <DropdownMenu open={at !== null} onOpenChange={(open) => !open && onClose()} modal>
      <DropdownMenuTrigger asChild>
        <span
          aria-hidden="true"
          className="pointer-events-none fixed size-px"
          style={{ left: at?.x ?? 0, top: at?.y ?? 0 }}
        />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" data-testid="fs-menu">
        {actions.map((a, i) => (
          <Fragment key={a.id}>
            {a.destructive && i > 0 && <DropdownMenuSeparator />}
            <DropdownMenuItem destructive={a.destructive} onSelect={a.onSelect}>
              <a.icon className="size-4" aria-hidden="true" />
              {a.label}
            </DropdownMenuItem>
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
