import type { DelinquencyTimeline, PauseDelinquencyRequest, ResumeDelinquencyRequest } from '@storage/contracts/delinquency';
import { apiRequest } from '@storage/web-client/api';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

// Under the customers' key: a payment at the desk refreshes it with the balance.
const delinquencyKey = (customerId: string) => [...customersQueryKey, 'delinquency', customerId] as const;

/** The renter's delinquency timeline; while delinquent it is read again every few seconds (a payment clears it within moments). */
export function useDelinquency(customerId: string) {
  return useQuery({
    queryKey: delinquencyKey(customerId),
    queryFn: async (): Promise<DelinquencyTimeline> => (await apiRequest('GET', `/api/customers/${customerId}/delinquency`)).json(),
    refetchInterval: (query) => (query.state.data?.status === 'delinquent' ? 3000 : false),
  });
}

/**
 * Shows the timeline a pause or resume answered. A read of the timeline still on its way (the
 * poll while delinquent) may have been answered before the change and would land after it,
 * showing the schedule as it was: it is dropped first.
 */
async function showChanged(queryClient: QueryClient, customerId: string, timeline: DelinquencyTimeline) {
  await queryClient.cancelQueries({ queryKey: delinquencyKey(customerId) });
  queryClient.setQueryData(delinquencyKey(customerId), timeline);
}

/** `key`: one per dialog opening, so a double submit records once. */
export function usePauseDelinquency(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, key }: { request: PauseDelinquencyRequest; key: string }): Promise<DelinquencyTimeline> =>
      (await apiRequest('POST', `/api/customers/${customerId}/delinquency/pause`, request, { 'Idempotency-Key': key })).json(),
    onSuccess: (timeline) => showChanged(queryClient, customerId, timeline),
  });
}

export function useResumeDelinquency(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, key }: { request: ResumeDelinquencyRequest; key: string }): Promise<DelinquencyTimeline> =>
      (await apiRequest('POST', `/api/customers/${customerId}/delinquency/resume`, request, { 'Idempotency-Key': key })).json(),
    onSuccess: (timeline) => showChanged(queryClient, customerId, timeline),
  });
}
