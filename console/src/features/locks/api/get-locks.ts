import type { LockStatus } from '@storage/contracts/enums';
import { type Lock, type LockException, lockExceptionsText, type lockSorting } from '@storage/contracts/locks';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

/** Cards a page (the card grid's 3 columns). */
export const LOCKS_PAGE_SIZE = 48;
/** Rows a page of the table: denser, so more of the fleet at once. */
export const LOCKS_TABLE_PAGE_SIZE = 100;

export const locksQueryKey = ['locks'] as const;

export type LocksFilter = {
  search: string;
  facilityId: string | null;
  status: LockStatus | null;
  /** A lock with any of these (none: every lock). */
  exceptions: LockException[];
  sort: Sort<keyof typeof lockSorting.columns>;
};

export type LocksPage = { locks: Lock[]; total: ListTotal };

export async function getLocks(filter: LocksFilter, page: PageAt, pageSize: number): Promise<LocksPage> {
  const { search, facilityId, status, exceptions, sort } = filter;
  const params = queryParams({ search, facilityId, status, exceptions: lockExceptionsText(exceptions), ...sort, pageSize });
  const { rows: locks, total } = await fetchListPage<Lock>('/api/locks', params, page);
  return { locks, total };
}

export const locksQueryOptions = (filter: LocksFilter, page: PageAt, pageSize = LOCKS_PAGE_SIZE) =>
  // Refreshed every 10 s: a lockout or a gateway's report changes desired and reported states without anyone here acting.
  queryOptions({
    queryKey: [...locksQueryKey, 'list', filter, pageSize, page],
    queryFn: () => getLocks(filter, page, pageSize),
    refetchInterval: 10_000,
  });

/** The previous page stays on screen while the next one loads. */
export function useLocks(filter: LocksFilter, page: PageAt, pageSize = LOCKS_PAGE_SIZE) {
  return useQuery({ ...locksQueryOptions(filter, page, pageSize), placeholderData: keepPreviousData });
}
