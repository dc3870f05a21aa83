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
 * Bottom right (bottom, full width, on phones): a toast never covers the header's links and menus, which sit at
 * the top and are what people reach for right after an action (issue 35 point 18).
 */
export default function SonnerToaster() {
  const theme = useResolvedTheme();
  return (
    <>
      <Sonner
        theme={theme}
        position="bottom-right"
        closeButton
        richColors
        duration={4000}
        toastOptions={{ className: 'font-sans' }}
      />
      <Mounted />
    </>
  );
}
