import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { Lease, LeaseStatusFilter, leaseSorting } from '@storage/contracts/leases';
import type { Sort } from '@storage/contracts/sorting';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryParams } from '../../../lib/list-state.ts';

export const LEASES_PAGE_SIZE = 30;

export const leasesQueryKey = ['leases'] as const;

/** `customerId`: one tenant's leases (the customer page). */
export type LeasesFilter = { search: string; facilityId: string | null; status: LeaseStatusFilter | null; customerId?: string };

export type LeasesSort = Sort<keyof typeof leaseSorting.columns>;

export type LeasesPage = { leases: Lease[]; total: number };

/** The filter as query parameters, the same for the list, its counts and the CSV export. */
export function leasesFilterParams({ search, facilityId, status, customerId }: Partial<LeasesFilter>): URLSearchParams {
  return queryParams({ search, facilityId, customerId, status });
}

export async function getLeases(filter: LeasesFilter, sort: LeasesSort, page: number): Promise<LeasesPage> {
  const params = queryParams({ ...Object.fromEntries(leasesFilterParams(filter)), ...sort, page, pageSize: LEASES_PAGE_SIZE });
  const response = await apiRequest('GET', `/api/leases?${params}`);
  const leases: Lease[] = await response.json();
  return { leases, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? leases.length) };
}

export const leasesQueryOptions = (filter: LeasesFilter, sort: LeasesSort, page: number) =>
  queryOptions({ queryKey: [...leasesQueryKey, 'list', filter, sort, page], queryFn: () => getLeases(filter, sort, page) });

/** The previous page stays on screen while the next one loads. */
export function useLeases(filter: LeasesFilter, sort: LeasesSort, page: number) {
  return useQuery({ ...leasesQueryOptions(filter, sort, page), placeholderData: keepPreviousData });
}

/** 'Export All': the CSV of every lease the filter matches, downloaded straight from the server. */
export function leasesExportUrl(filter: LeasesFilter): string {
  const params = leasesFilterParams(filter);
  return `/api/leases/export.csv${params.size > 0 ? `?${params}` : ''}`;
}
