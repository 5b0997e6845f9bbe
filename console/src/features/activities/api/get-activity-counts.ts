import type { ActivityTabCounts } from '@storage/contracts/activities';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ActivitiesFilter, activitiesQueryKey, filterParams } from './get-activities.ts';

export async function getActivityCounts(filter: ActivitiesFilter): Promise<ActivityTabCounts> {
  const response = await apiRequest('GET', `/api/activities/counts?${filterParams(filter)}`);
  return response.json();
}

export const activityCountsQueryOptions = (filter: ActivitiesFilter) =>
  queryOptions({ queryKey: [...activitiesQueryKey, 'counts', filter], queryFn: () => getActivityCounts(filter) });

export function useActivityCounts(filter: ActivitiesFilter) {
  return useQuery({ ...activityCountsQueryOptions(filter), placeholderData: keepPreviousData });
}
