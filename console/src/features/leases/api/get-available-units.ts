import type { Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

const PICKER_SIZE = 30;

export type AvailableUnitSearch = { search: string; facilityId: string | null };

/** The units free to move into, found by number, building or size on the server. */
export async function getAvailableUnits({ search, facilityId }: AvailableUnitSearch): Promise<Unit[]> {
  const params = new URLSearchParams({ status: 'available', pageSize: String(PICKER_SIZE) });
  if (search) params.set('search', search);
  if (facilityId) params.set('facilityId', facilityId);
  const response = await apiRequest('GET', `/api/units?${params}`);
  return response.json();
}

export const availableUnitsQueryOptions = (query: AvailableUnitSearch) =>
  queryOptions({
    queryKey: [...leasesQueryKey, 'available-units', query],
    queryFn: () => getAvailableUnits(query),
    // A picker offers what is there now, not what was there when it last opened.
    staleTime: 0,
  });
