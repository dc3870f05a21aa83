/**
 * `toast` with sonner's API, but sonner (and its toaster) load only when the first toast is shown:
 * most visits never show one, and a shared paste should not download it. Import `toast` from here, not 'sonner'.
 */
import type * as SonnerModule from 'sonner';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Sonner = typeof SonnerModule;
type Message = Parameters<typeof sonnerToast>[0];
type Kind = 'success' | 'error' | 'info' | 'warning';

let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
let sonner: Promise<Sonner> | undefined;
let seq = 0;

/** For the toaster host (components/ui/toaster.tsx): whether a toast was asked for, so the toaster must mount. */
export const toasterState = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  wanted: () => wanted,
  /** The toaster calls this once it listens: toasts queued before it are shown from then on. */
  mounted: () => markMounted(),
};

function load(): Promise<Sonner> {
  if (!sonner) {
    wanted = true;
    listeners.forEach((listener) => listener());
    sonner = Promise.all([import('sonner'), mounted]).then(([module]) => module);
  }
  return sonner;
}

function show(kind: Kind | null, message: Message, options?: ExternalToast): string | number {
  const id = options?.id ?? `toast-${++seq}`;
  void load().then(({ toast }) => (kind ? toast[kind] : toast)(message, { ...options, id }));
  return id;
}

export const toast = Object.assign((message: Message, options?: ExternalToast) => show(null, message, options), {
  success: (message: Message, options?: ExternalToast) => show('success', message, options),
  error: (message: Message, options?: ExternalToast) => show('error', message, options),
  info: (message: Message, options?: ExternalToast) => show('info', message, options),
  warning: (message: Message, options?: ExternalToast) => show('warning', message, options),
  dismiss: (id?: string | number) => {
    if (sonner) void sonner.then(({ toast }) => toast.dismiss(id));
  },
});
