import type { GateCode } from '@storage/contracts/access';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { gateCodesQueryKey } from '../../../lib/query-keys.ts';

export async function getGateCodes(customerId: string): Promise<GateCode[]> {
  const response = await apiRequest('GET', `/api/customers/${encodeURIComponent(customerId)}/gate-codes`);
  return response.json();
}

export function useGateCodes(customerId: string) {
  return useQuery({ queryKey: [...gateCodesQueryKey, customerId], queryFn: () => getGateCodes(customerId) });
}

/** A new code for the lease; the old one stops opening anything. */
export async function rotateGateCode(leaseId: string): Promise<GateCode> {
  const response = await apiRequest('POST', `/api/leases/${encodeURIComponent(leaseId)}/gate-code/rotate`);
  return response.json();
}

export function useRotateGateCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rotateGateCode, onSuccess: () => queryClient.invalidateQueries({ queryKey: gateCodesQueryKey }) });
}
