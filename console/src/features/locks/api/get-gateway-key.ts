import type { GatewayKey } from '@storage/contracts/locks';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api.ts';

export const gatewayKeysQueryKey = ['gateway-keys'] as const;

/** The facility's key as staff see it (prefix and date), or null when it has none yet. */
export async function getGatewayKey(facilityId: string): Promise<GatewayKey | null> {
  try {
    const response = await apiRequest('GET', `/api/facilities/${encodeURIComponent(facilityId)}/gateway-key`);
    return await response.json();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const gatewayKeyQueryOptions = (facilityId: string) =>
  queryOptions({ queryKey: [...gatewayKeysQueryKey, facilityId], queryFn: () => getGatewayKey(facilityId) });

export function useGatewayKey(facilityId: string) {
  return useQuery(gatewayKeyQueryOptions(facilityId));
}
