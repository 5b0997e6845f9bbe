import type { Lease, StartLeaseRequest } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

/** The attempts of a move-in into a unit: one key (attemptKey) until the move-in is answered. */
export const moveInScope = (unitId: string) => `move-in:${unitId}`;

/** `key`: one per attempted move-in until it is answered, so a retry after a lost answer gets the lease made, not a refusal. */
export async function startLease(request: StartLeaseRequest, key: string): Promise<Lease> {
  const response = await apiRequest('POST', '/api/leases', request, { 'Idempotency-Key': key });
  return response.json();
}

/** The Move In holds the attempt (`key`, from moveInScope) until what it does after the lease is answered too. */
export function useStartLease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, key }: { request: StartLeaseRequest; key: string }) => startLease(request, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leasesQueryKey }),
  });
}
