import type { Activity, ActivityTab } from '@storage/contracts/activities';
import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import type { ActivityType } from '@storage/contracts/enums';
import { apiRequest } from '@storage/web-client/api';
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';

const PAGE_SIZE = 50;

export const activitiesQueryKey = ['activities'] as const;

export type ActivitiesFilter = { search: string; type: ActivityType | null; facilityId: string | null };

export function filterParams(filter: ActivitiesFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search) params.set('search', filter.search);
  if (filter.type) params.set('type', filter.type);
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  return params;
}

export type ActivitiesPage = { activities: Activity[]; total: number };

export async function getActivities(filter: ActivitiesFilter, tab: ActivityTab, page: number, pageSize = PAGE_SIZE): Promise<ActivitiesPage> {
  const params = filterParams(filter);
  params.set('tab', tab);
  params.set('page', String(page));
  params.set('pageSize', String(pageSize));
  const response = await apiRequest('GET', `/api/activities?${params}`);
  const activities: Activity[] = await response.json();
  return { activities, total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? activities.length) };
}

export const activitiesQueryOptions = (filter: ActivitiesFilter, tab: ActivityTab) =>
  infiniteQueryOptions({
    queryKey: [...activitiesQueryKey, 'list', filter, tab],
    queryFn: ({ pageParam }) => getActivities(filter, tab, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages, lastPageParam) =>
      pages.reduce((loaded, page) => loaded + page.activities.length, 0) < lastPage.total ? lastPageParam + 1 : undefined,
  });

export function useActivities(filter: ActivitiesFilter, tab: ActivityTab) {
  return useInfiniteQuery({ ...activitiesQueryOptions(filter, tab), placeholderData: keepPreviousData });
}

/** The newest entries of the scope, for the dashboard's feed. */
export const recentActivitiesQueryOptions = (facilityId: string | null, count: number) =>
  queryOptions({
    queryKey: [...activitiesQueryKey, 'recent', facilityId, count],
    queryFn: async () => (await getActivities({ search: '', type: null, facilityId }, 'all', 1, count)).activities,
  });

export function useRecentActivities(facilityId: string | null, count: number) {
  return useQuery(recentActivitiesQueryOptions(facilityId, count));
}
