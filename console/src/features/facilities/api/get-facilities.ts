import type { Facility } from '@storage/contracts/facilities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api.ts';

export async function getFacilities(): Promise<Facility[]> {
  const response = await apiRequest('GET', '/api/facilities');
  return response.json();
}

export const facilitiesQueryOptions = () => queryOptions({ queryKey: ['facilities'], queryFn: getFacilities });

export function useFacilities() {
  return useQuery(facilitiesQueryOptions());
}
