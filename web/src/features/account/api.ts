import type {
  AdminSessionView,
  PasskeyOptionsResult,
  PasskeyView,
  RecoveryCodesResult,
  TotpSetupResult,
  TwoFactorStatus,
} from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { passkeyCreation } from '../../lib/passkeys';

const keys = {
  twoFactor: ['admin', '2fa'] as const,
  sessions: ['admin', 'sessions'] as const,
  passkeys: ['admin', 'passkeys'] as const,
};

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: keys.twoFactor,
    queryFn: ({ signal }) => api.get<TwoFactorStatus>('/admin/2fa', { signal }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: keys.sessions,
    queryFn: ({ signal }) => api.get<{ items: AdminSessionView[]; total: number }>('/admin/sessions', { signal }),
  });
}

export function usePasskeys() {
  return useQuery({
    queryKey: keys.passkeys,
    queryFn: ({ signal }) => api.get<{ items: PasskeyView[]; total: number }>('/admin/passkeys', { signal }),
  });
}

/** Every mutation here changes what the three lists show: refresh them all. */
function useRefresh() {
  const client = useQueryClient();
  return () => Promise.all(Object.values(keys).map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useTotpSetup() {
  return useMutation({ mutationFn: () => api.post<TotpSetupResult>('/admin/2fa/setup') });
}

export function useTotpEnable() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { code: string; password: string }) =>
      api.post<RecoveryCodesResult>('/admin/2fa/enable', input),
    onSuccess: refresh,
  });
}

export function useTotpDisable() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api.post<TwoFactorStatus>('/admin/2fa/disable', { code }),
    onSuccess: refresh,
  });
}

export function useRenewRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodesResult>('/admin/2fa/recovery-codes', { code }),
    onSuccess: refresh,
  });
}

export function useEndSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/sessions/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}

export function useEndOtherSessions() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => api.delete<{ ended: number }>('/admin/sessions'),
    onSuccess: refresh,
  });
}

export function useAddPasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (input: { name: string; password: string }) => {
      const start = await api.post<PasskeyOptionsResult>('/admin/passkeys/register/options', {
        password: input.password,
      });
      const response = await passkeyCreation(start);
      return api.post<PasskeyView>('/admin/passkeys', { challenge_id: start.challenge_id, name: input.name, response });
    },
    onSuccess: refresh,
  });
}

export function useRenamePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; name: string }) =>
      api.put<PasskeyView>(`/admin/passkeys/${encodeURIComponent(input.id)}`, { name: input.name }),
    onSuccess: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/passkeys/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}
