import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (4xx) will not change on retry; transport and 5xx errors get one more try.
      retry: (failureCount, error) => {
        if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
        return failureCount < 1;
      },
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // Offline, the first attempt still runs: reads answer from the offline database (lib/offline/readThrough).
      networkMode: 'offlineFirst',
    },
    // Never paused offline: state-changing calls queue themselves (lib/offline/queueable) instead.
    mutations: { retry: false, networkMode: 'always' },
  },
});
