import type { CancelMoveOutRequest, EndLeaseRequest, Lease, LeaseMoveOut } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { customersQueryKey, gateCodesQueryKey, invoicesQueryKey } from '../../../lib/query-keys.ts';
import { leasesQueryKey } from './get-leases.ts';

export type LeaseEnding = { leaseId: string } & EndLeaseRequest;

export async function endLease({ leaseId, ...request }: LeaseEnding): Promise<Lease> {
  const response = await apiRequest('POST', `/api/leases/${encodeURIComponent(leaseId)}/end`, request);
  return response.json();
}

/** Under the leases' key: whatever refreshes the leases refreshes it. */
const moveOutQueryKey = (leaseId: string) => [...leasesQueryKey, 'move-out', leaseId] as const;

/** Today in the lease's facility (a later end date schedules the move-out) and the move-out scheduled on it. */
export function useLeaseMoveOut(leaseId: string) {
  return useQuery({
    queryKey: moveOutQueryKey(leaseId),
    queryFn: async (): Promise<LeaseMoveOut> => (await apiRequest('GET', `/api/leases/${encodeURIComponent(leaseId)}/move-out`)).json(),
  });
}

/**
 * The lists are refetched without waiting: the refetched lease is inactive, which takes its Move
 * Out button (and the dialog that called this) off the card, and the caller's own callbacks (the
 * toast) only run while it is still there.
 */
export function useEndLease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endLease,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: leasesQueryKey });
      // The move-out's credits and deposit change the renter's invoices, balance and statement.
      void queryClient.invalidateQueries({ queryKey: invoicesQueryKey });
      // The move-out suspends the lease's gate code (the access reaction, a moment later).
      void queryClient.invalidateQueries({ queryKey: gateCodesQueryKey });
      void queryClient.invalidateQueries({ queryKey: customersQueryKey });
    },
  });
}

/** Calls off the lease's scheduled move-out: the lease runs on. */
export function useCancelMoveOut(leaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CancelMoveOutRequest) => {
      await apiRequest('DELETE', `/api/leases/${encodeURIComponent(leaseId)}/move-out`, request);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leasesQueryKey }),
  });
}
