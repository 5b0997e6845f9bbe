import type { LeaseCounts, LeaseSignatureFilter } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { leasesFilterParams, leasesQueryKey } from './get-leases.ts';

export type LeaseCountsFilter = { search: string; facilityId: string | null; signature?: LeaseSignatureFilter | null };

export async function getLeaseCounts(filter: LeaseCountsFilter): Promise<LeaseCounts> {
  const params = leasesFilterParams(filter);
  const response = await apiRequest('GET', `/api/leases/counts${params.size > 0 ? `?${params}` : ''}`);
  return response.json();
}

export const leaseCountsQueryOptions = (filter: LeaseCountsFilter) =>
  queryOptions({ queryKey: [...leasesQueryKey, 'counts', filter], queryFn: () => getLeaseCounts(filter) });

export function useLeaseCounts(filter: LeaseCountsFilter) {
  return useQuery({ ...leaseCountsQueryOptions(filter), placeholderData: keepPreviousData });
}
