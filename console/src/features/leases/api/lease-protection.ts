import type { ChangeLeaseProtectionRequest, LeaseProtectionView, RecordInsuranceProofRequest } from '@storage/contracts/protection';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

// A lease's protection: its plan now and before, the proof of the renter's own insurance, and the
// plans it may change to (the lease card's Protection block).

export const leaseProtectionQueryKey = (leaseId: string) => [...leasesQueryKey, 'protection', leaseId] as const;

const protectionPath = (leaseId: string) => `/api/leases/${encodeURIComponent(leaseId)}/protection`;

export function useLeaseProtection(leaseId: string) {
  return useQuery({
    queryKey: leaseProtectionQueryKey(leaseId),
    queryFn: async (): Promise<LeaseProtectionView> => (await apiRequest('GET', protectionPath(leaseId))).json(),
  });
}

/** Both changes answer the view as it now is: it replaces the one on screen. */
function useProtectionChange<Request>(leaseId: string, path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: Request): Promise<LeaseProtectionView> => (await apiRequest('POST', path, request)).json(),
    onSuccess: (view) => queryClient.setQueryData(leaseProtectionQueryKey(leaseId), view),
  });
}

/** A plan of the lease's facility, or null to cancel; billed from the first period not yet invoiced. */
export const useChangeLeaseProtection = (leaseId: string) => useProtectionChange<ChangeLeaseProtectionRequest>(leaseId, protectionPath(leaseId));

export const useRecordInsuranceProof = (leaseId: string) =>
  useProtectionChange<RecordInsuranceProofRequest>(leaseId, `/api/leases/${encodeURIComponent(leaseId)}/insurance-proof`);
