import type { GatewayKey } from '@storage/contracts/locks';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const gatewayKeysQueryKey = ['gateway-keys'] as const;

/** The facility's key as staff see it (prefix and date), or null when it has none yet (204). */
export async function getGatewayKey(facilityId: string): Promise<GatewayKey | null> {
  const response = await apiRequest('GET', `/api/facilities/${encodeURIComponent(facilityId)}/gateway-key`);
  return response.status === 204 ? null : response.json();
}

export const gatewayKeyQueryOptions = (facilityId: string) =>
  queryOptions({ queryKey: [...gatewayKeysQueryKey, facilityId], queryFn: () => getGatewayKey(facilityId) });

export function useGatewayKey(facilityId: string) {
  return useQuery(gatewayKeyQueryOptions(facilityId));
}
