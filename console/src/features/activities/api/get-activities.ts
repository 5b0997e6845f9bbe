import type { Activity, ActivityTab, activitySorting } from '@storage/contracts/activities';
import type { ActivityType } from '@storage/contracts/enums';
import type { ListTotal } from '@storage/contracts/page-info';
import type { Sort } from '@storage/contracts/sorting';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { fetchListPage, type PageAt } from '../../../lib/list-page.ts';
import { queryParams } from '../../../lib/list-state.ts';

export const ACTIVITIES_PAGE_SIZE = 50;

export const activitiesQueryKey = ['activities'] as const;

/** `customerId`: one customer's entries (the customer page). */
export type ActivitiesFilter = { search: string; type: ActivityType | null; facilityId: string | null; customerId?: string };

export function filterParams({ search, type, facilityId, customerId }: ActivitiesFilter): URLSearchParams {
  return queryParams({ search, type, facilityId, customerId });
}

export type ActivitiesPage = { activities: Activity[]; total: ListTotal };
export type ActivitiesView = { tab: ActivityTab; sort?: Sort<keyof typeof activitySorting.columns> };

export async function getActivities(
  filter: ActivitiesFilter,
  { tab, sort }: ActivitiesView,
  page: PageAt,
  pageSize = ACTIVITIES_PAGE_SIZE,
): Promise<ActivitiesPage> {
  const { search, type, facilityId, customerId } = filter;
  const params = queryParams({ search, type, facilityId, customerId, tab, ...sort, pageSize });
  const { rows: activities, total } = await fetchListPage<Activity>('/api/activities', params, page);
  return { activities, total };
}

export const activitiesQueryOptions = (filter: ActivitiesFilter, view: ActivitiesView, page: PageAt) =>
  queryOptions({ queryKey: [...activitiesQueryKey, 'list', filter, view, page], queryFn: () => getActivities(filter, view, page) });

/** The previous page stays on screen while the next one loads. */
export function useActivities(filter: ActivitiesFilter, view: ActivitiesView, page: PageAt) {
  return useQuery({ ...activitiesQueryOptions(filter, view, page), placeholderData: keepPreviousData });
}

/** The newest entries of the scope, for the dashboard's feed. */
export const recentActivitiesQueryOptions = (facilityId: string | null, count: number) =>
  queryOptions({
    queryKey: [...activitiesQueryKey, 'recent', facilityId, count],
    queryFn: async () => (await getActivities({ search: '', type: null, facilityId }, { tab: 'all' }, 1, count)).activities,
  });

export function useRecentActivities(facilityId: string | null, count: number) {
  return useQuery(recentActivitiesQueryOptions(facilityId, count));
}
