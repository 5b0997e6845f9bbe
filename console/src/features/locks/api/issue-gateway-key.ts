import type { IssuedGatewayKey } from '@storage/contracts/locks';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gatewayKeysQueryKey } from './get-gateway-key.ts';

/** Creates the facility's gateway key or replaces it; the answer is the only time the key is shown. */
export async function issueGatewayKey(facilityId: string): Promise<IssuedGatewayKey> {
  const response = await apiRequest('POST', `/api/facilities/${encodeURIComponent(facilityId)}/gateway-key`);
  return response.json();
}

export function useIssueGatewayKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueGatewayKey,
    onSuccess: (_issued, facilityId) => queryClient.invalidateQueries({ queryKey: [...gatewayKeysQueryKey, facilityId] }),
  });
}
