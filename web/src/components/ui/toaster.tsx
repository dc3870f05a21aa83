import { Toaster as Sonner } from 'sonner';
import { useResolvedTheme } from '../../lib/theme';

export { toast } from 'sonner';

export function Toaster() {
  const theme = useResolvedTheme();
  return (
    <Sonner
      theme={theme}
      position="top-center"
      closeButton
      richColors
      duration={4000}
      toastOptions={{ className: 'font-sans' }}
    />
  );
}
