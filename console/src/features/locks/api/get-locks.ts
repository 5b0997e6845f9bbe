import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { Lock } from '@storage/contracts/locks';
import { apiRequest } from '@storage/web-client/api';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

const PAGE_SIZE = 48;

export const locksQueryKey = ['locks'] as const;

export type LocksFilter = { search: string; facilityId: string | null };

export type LocksPage = { locks: Lock[]; total: number };

export async function getLocks(filter: LocksFilter, page: number): Promise<LocksPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (filter.search) params.set('search', filter.search);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  const response = await apiRequest('GET', `/api/locks?${params}`);
  const locks: Lock[] = await response.json();
  return { locks, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? locks.length) };
}

export const locksQueryOptions = (filter: LocksFilter) =>
  infiniteQueryOptions({
    queryKey: [...locksQueryKey, filter],
    queryFn: ({ pageParam }) => getLocks(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages, lastPageParam) =>
      pages.reduce((loaded, page) => loaded + page.locks.length, 0) < lastPage.total ? lastPageParam + 1 : undefined,
  });

export function useLocks(filter: LocksFilter) {
  return useInfiniteQuery({ ...locksQueryOptions(filter), placeholderData: keepPreviousData });
}
