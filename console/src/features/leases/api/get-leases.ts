import type { Lease, LeaseSignatureFilter, LeaseStatusFilter, leaseSorting } from '@storage/contracts/leases';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const LEASES_PAGE_SIZE = 30;

export const leasesQueryKey = ['leases'] as const;

/** `customerId`: one tenant's leases (the customer page). */
export type LeasesFilter = {
  search: string;
  facilityId: string | null;
  status: LeaseStatusFilter | null;
  customerId?: string;
  /** Signed electronically, or awaiting the renter's signature (null or absent: either). */
  signature?: LeaseSignatureFilter | null;
};

export type LeasesSort = Sort<keyof typeof leaseSorting.columns>;

export type LeasesPage = { leases: Lease[]; total: ListTotal };

/** The filter as query parameters, the same for the list, its counts and the CSV export. */
export function leasesFilterParams({ search, facilityId, status, customerId, signature }: Partial<LeasesFilter>): URLSearchParams {
  return queryParams({ search, facilityId, customerId, status, signature });
}

export async function getLeases(filter: LeasesFilter, sort: LeasesSort, page: PageAt): Promise<LeasesPage> {
  const params = queryParams({ ...Object.fromEntries(leasesFilterParams(filter)), ...sort, pageSize: LEASES_PAGE_SIZE });
  const { rows: leases, total } = await fetchListPage<Lease>('/api/leases', params, page);
  return { leases, total };
}

export const leasesQueryOptions = (filter: LeasesFilter, sort: LeasesSort, page: PageAt) =>
  queryOptions({ queryKey: [...leasesQueryKey, 'list', filter, sort, page], queryFn: () => getLeases(filter, sort, page) });

/** The previous page stays on screen while the next one loads. */
export function useLeases(filter: LeasesFilter, sort: LeasesSort, page: PageAt) {
  return useQuery({ ...leasesQueryOptions(filter, sort, page), placeholderData: keepPreviousData });
}

/** 'Export All': the CSV of every lease the filter matches, downloaded straight from the server. */
export function leasesExportUrl(filter: LeasesFilter): string {
  const params = leasesFilterParams(filter);
  return `/api/leases/export.csv${params.size > 0 ? `?${params}` : ''}`;
}
