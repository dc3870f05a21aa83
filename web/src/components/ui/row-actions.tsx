import { Ellipsis, type LucideIcon } from 'lucide-react';
import { Fragment } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu';
import { IconButton } from './icon-button';
import { Tooltip } from './tooltip';

export interface RowAction {
  label: string;
  icon: LucideIcon;
  onSelect?: () => void;
  /** Opens this address in a new tab instead of calling onSelect. */
  href?: string;
  disabled?: boolean;
  /** Red, and set apart from the items above it by a separator. */
  destructive?: boolean;
}

/**
 * The actions of one list row: a few icon buttons, then a "More actions" menu (DESIGN.md: row actions
 * in a menu). `name` names the row for screen readers ("More actions: report.pdf"). `false` entries are skipped.
 */
export function RowActions({
  name,
  quick = [],
  menu,
}: {
  name: string;
  quick?: ({ label: string; icon: LucideIcon; onClick: () => void } | false)[];
  menu: (RowAction | false)[];
}) {
  const { t } = useTranslation();
  const items = menu.filter((item): item is RowAction => item !== false);
  const firstDestructive = items.findIndex((item) => item.destructive);
  return (
    <div className="flex items-center justify-end gap-0.5">
      {quick.map(
        (action) =>
          action && (
            <IconButton key={action.label} label={action.label} size="icon-sm" onClick={action.onClick}>
              <action.icon className="size-4" />
            </IconButton>
          ),
      )}
      <DropdownMenu>
        <Tooltip content={t('common.moreActions')}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`${t('common.moreActions')}: ${name}`}>
              <Ellipsis className="size-4" />
            </Button>
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent>
          {items.map((item, index) => (
            <Fragment key={item.label}>
              {index === firstDestructive && index > 0 && <DropdownMenuSeparator />}
              {item.href ? (
                <DropdownMenuItem asChild disabled={item.disabled} destructive={item.destructive}>
                  <a href={item.href} target="_blank" rel="noopener noreferrer">
                    <item.icon />
                    {item.label}
                  </a>
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem onSelect={item.onSelect} disabled={item.disabled} destructive={item.destructive}>
                  <item.icon />
                  {item.label}
                </DropdownMenuItem>
              )}
            </Fragment>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
