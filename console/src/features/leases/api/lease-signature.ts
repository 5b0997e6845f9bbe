import type { LeaseSignature, LeaseToSign, SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

const leasePath = (leaseId: string) => `/api/leases/${encodeURIComponent(leaseId)}`;

/** The agreement as it would be signed now, its hash, and the newest signature. */
export function useLeaseToSign(leaseId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...leasesQueryKey, 'to-sign', leaseId],
    queryFn: async (): Promise<LeaseToSign> => (await apiRequest('GET', `${leasePath(leaseId)}/signature`)).json(),
    enabled,
    // Read afresh at each opening: the renter signs what the server would sign now.
    staleTime: 0,
  });
}

/** Signs at the desk; the leases refetch so the card shows the signature. */
export function useSignLease(leaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: SignLeaseRequest): Promise<LeaseSignature> => (await apiRequest('POST', `${leasePath(leaseId)}/signature`, request)).json(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leasesQueryKey }),
  });
}

export const signedLeasePdfUrl = (leaseId: string) => `${leasePath(leaseId)}/signed.pdf`;
