import { useEffect } from 'react';
import { Toaster as Sonner } from 'sonner';
import { toasterState } from '../../lib/toast';
import { useResolvedTheme } from '../../lib/theme';

/** Runs its effect after the toaster's own (siblings in order): the toaster listens by then. */
function Mounted() {
  useEffect(() => toasterState.mounted(), []);
  return null;
}

export default function SonnerToaster() {
  const theme = useResolvedTheme();
  return (
    <>
      <Sonner
        theme={theme}
        position="top-center"
        closeButton
        richColors
        duration={4000}
        toastOptions={{ className: 'font-sans' }}
      />
      <Mounted />
    </>
  );
}
