import type { LockStatus } from '@storage/contracts/enums';
import type { Lock, lockSorting } from '@storage/contracts/locks';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const LOCKS_PAGE_SIZE = 48;

export const locksQueryKey = ['locks'] as const;

export type LocksFilter = {
  search: string;
  facilityId: string | null;
  status: LockStatus | null;
  sort: Sort<keyof typeof lockSorting.columns>;
};

export type LocksPage = { locks: Lock[]; total: ListTotal };

export async function getLocks(filter: LocksFilter, page: PageAt): Promise<LocksPage> {
  const { search, facilityId, status, sort } = filter;
  const params = queryParams({ search, facilityId, status, ...sort, pageSize: LOCKS_PAGE_SIZE });
  const { rows: locks, total } = await fetchListPage<Lock>('/api/locks', params, page);
  return { locks, total };
}

export const locksQueryOptions = (filter: LocksFilter, page: PageAt) =>
  // Refreshed every 10 s: a lockout or a gateway's report changes desired and reported states without anyone here acting.
  queryOptions({ queryKey: [...locksQueryKey, 'list', filter, page], queryFn: () => getLocks(filter, page), refetchInterval: 10_000 });

/** The previous page stays on screen while the next one loads. */
export function useLocks(filter: LocksFilter, page: PageAt) {
  return useQuery({ ...locksQueryOptions(filter, page), placeholderData: keepPreviousData });
}
