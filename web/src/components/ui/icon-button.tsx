import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './button';
import { Tooltip } from './tooltip';

/** An icon-only button: always has an aria-label and a tooltip with the same text (DESIGN.md). */
export type IconButtonProps = Omit<ButtonProps, 'aria-label'> & {
  label: string;
  children: ReactNode;
  tooltipSide?: 'top' | 'bottom' | 'left' | 'right';
};

export function IconButton({
  label,
  children,
  size = 'icon',
  variant = 'ghost',
  tooltipSide,
  ...props
}: IconButtonProps) {
  return (
    <Tooltip content={label} side={tooltipSide}>
      <Button aria-label={label} size={size} variant={variant} {...props}>
        {children}
      </Button>
    </Tooltip>
  );
}
