import type { Lease, StartLeaseRequest } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attemptKey, attemptSettled } from '../../../lib/attempt-keys.ts';
import { leasesQueryKey } from './get-leases.ts';

/** `key`: one per attempted move-in until it is answered, so a retry after a lost answer gets the lease made, not a refusal. */
export async function startLease(request: StartLeaseRequest, key: string): Promise<Lease> {
  const response = await apiRequest('POST', '/api/leases', request, { 'Idempotency-Key': key });
  return response.json();
}

export function useStartLease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StartLeaseRequest) => startLease(request, attemptKey(`move-in:${request.unitId}`, request)),
    onSuccess: (_lease, request) => {
      attemptSettled(`move-in:${request.unitId}`);
      return queryClient.invalidateQueries({ queryKey: leasesQueryKey });
    },
    onError: (error, request) => attemptSettled(`move-in:${request.unitId}`, error),
  });
}
