import type { Lease } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

export type LeaseEnding = { leaseId: string; endDate: string };

export async function endLease({ leaseId, endDate }: LeaseEnding): Promise<Lease> {
  const response = await apiRequest('POST', `/api/leases/${encodeURIComponent(leaseId)}/end`, { endDate });
  return response.json();
}

export function useEndLease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endLease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leasesQueryKey }),
  });
}
