import type { LoginFlowApproval, LoginFlowView } from '@clipnest/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

const flowPath = (token: string) => `/admin/login-flows/${encodeURIComponent(token)}`;

/** The app waiting at this sign-in link (404 once the link is answered or expired). */
export function useLoginFlow(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'login-flow', token],
    queryFn: ({ signal }) => api.get<LoginFlowView>(flowPath(token), { signal }),
    enabled,
    // Answering spends the link: asking again would only say it is gone.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useAnswerLoginFlow(token: string) {
  return useMutation({
    mutationFn: (answer: 'approve' | 'deny') =>
      answer === 'approve'
        ? api.post<LoginFlowApproval>(`${flowPath(token)}/approve`)
        : api.post<null>(`${flowPath(token)}/deny`).then(() => null),
  });
}
