import { useEffect } from 'react';
import { Toaster as Sonner } from 'sonner';
import { toasterState } from '../../lib/toast';
import { useResolvedTheme } from '../../lib/theme';

/** Runs its effect after the toaster's own (siblings in order): the toaster listens by then. */
function Mounted() {
  useEffect(() => toasterState.mounted(), []);
  return null;
}

/**
 * Top centre, just below the sticky header (h-14 and its border): a toast never covers the header's links and
 * menus, which people reach for right after an action, nor the bottom-right corner where
 * forms and cards keep their primary actions (DESIGN.md) and where a hovered toast would never go away.
 */
const BELOW_HEADER = { top: 'calc(3.5rem + 9px)' };

export default function SonnerToaster() {
  const theme = useResolvedTheme();
  return (
    <>
      <Sonner
        theme={theme}
        position="top-center"
        offset={BELOW_HEADER}
        mobileOffset={BELOW_HEADER}
        closeButton
        richColors
        duration={4000}
        toastOptions={{ className: 'font-sans' }}
      />
      <Mounted />
    </>
  );
}
