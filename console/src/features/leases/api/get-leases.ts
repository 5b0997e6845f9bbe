import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { Lease, LeaseStatusFilter } from '@storage/contracts/leases';
import { apiRequest } from '@storage/web-client/api';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

const PAGE_SIZE = 30;

export const leasesQueryKey = ['leases'] as const;

export type LeasesFilter = { search: string; facilityId: string | null; status: LeaseStatusFilter | null };

export type LeasesPage = { leases: Lease[]; total: number };

/** The filter as query parameters, the same for the list, its counts and the CSV export. */
export function leasesFilterParams(filter: Partial<LeasesFilter>): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search) params.set('search', filter.search);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  if (filter.status) params.set('status', filter.status);
  return params;
}

export async function getLeases(filter: LeasesFilter, page: number): Promise<LeasesPage> {
  const params = leasesFilterParams(filter);
  params.set('page', String(page));
  params.set('pageSize', String(PAGE_SIZE));
  const response = await apiRequest('GET', `/api/leases?${params}`);
  const leases: Lease[] = await response.json();
  return { leases, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? leases.length) };
}

export const leasesQueryOptions = (filter: LeasesFilter) =>
  infiniteQueryOptions({
    queryKey: [...leasesQueryKey, 'list', filter],
    queryFn: ({ pageParam }) => getLeases(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages, lastPageParam) =>
      pages.reduce((loaded, page) => loaded + page.leases.length, 0) < lastPage.total ? lastPageParam + 1 : undefined,
  });

export function useLeases(filter: LeasesFilter) {
  return useInfiniteQuery({ ...leasesQueryOptions(filter), placeholderData: keepPreviousData });
}

/** 'Export All': the CSV of every lease the filter matches, downloaded straight from the server. */
export function leasesExportUrl(filter: LeasesFilter): string {
  const params = leasesFilterParams(filter);
  return `/api/leases/export.csv${params.size > 0 ? `?${params}` : ''}`;
}
