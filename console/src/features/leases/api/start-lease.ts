import type { Lease, StartLeaseRequest } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

export async function startLease(request: StartLeaseRequest): Promise<Lease> {
  const response = await apiRequest('POST', '/api/leases', request);
  return response.json();
}

export function useStartLease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startLease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leasesQueryKey }),
  });
}
