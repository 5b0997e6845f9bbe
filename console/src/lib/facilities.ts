import type { Facility } from '@storage/contracts/facilities';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** A business's facilities fit in one page; the selector, Settings and the forms that ask for a facility list them all (shared: every feature may need them). */
const ALL_FACILITIES_PAGE_SIZE = 200;

export const facilitiesQueryKey = ['facilities'] as const;

export async function getFacilities(): Promise<Facility[]> {
  const response = await apiRequest('GET', `/api/facilities?pageSize=${ALL_FACILITIES_PAGE_SIZE}`);
  return response.json();
}

export const facilitiesQueryOptions = () => queryOptions({ queryKey: facilitiesQueryKey, queryFn: getFacilities });

export function useFacilities() {
  return useQuery(facilitiesQueryOptions());
}
