import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { UnitStatus } from '@storage/contracts/enums';
import type { Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery } from '@tanstack/react-query';

const PAGE_SIZE = 48;
const CHOICES = 20;

export const unitsQueryKey = ['units'] as const;

export type UnitsFilter = { search: string; facilityId: string | null; status?: UnitStatus | null };

export type UnitsPage = { units: Unit[]; total: number };

export function unitsFilterParams(filter: UnitsFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search) params.set('search', filter.search);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  if (filter.status) params.set('status', filter.status);
  return params;
}

export async function getUnits(filter: UnitsFilter, page: number, pageSize = PAGE_SIZE): Promise<UnitsPage> {
  const params = unitsFilterParams(filter);
  params.set('page', String(page));
  params.set('pageSize', String(pageSize));
  const response = await apiRequest('GET', `/api/units?${params}`);
  const units: Unit[] = await response.json();
  return { units, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? units.length) };
}

export const unitsQueryOptions = (filter: UnitsFilter) =>
  infiniteQueryOptions({
    queryKey: [...unitsQueryKey, 'list', filter],
    queryFn: ({ pageParam }) => getUnits(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages, lastPageParam) =>
      pages.reduce((loaded, page) => loaded + page.units.length, 0) < lastPage.total ? lastPageParam + 1 : undefined,
  });

export function useUnits(filter: UnitsFilter) {
  return useInfiniteQuery({ ...unitsQueryOptions(filter), placeholderData: keepPreviousData });
}

/** The first units a picker offers for a search term. */
export const unitChoicesQueryOptions = (filter: UnitsFilter) =>
  queryOptions({
    queryKey: [...unitsQueryKey, 'choices', filter],
    queryFn: async () => (await getUnits(filter, 1, CHOICES)).units,
  });
