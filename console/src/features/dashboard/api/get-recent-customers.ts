import type { RecentCustomer } from '@storage/contracts/dashboard';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardQueryKey } from './get-dashboard-metrics.ts';

export type RecentCustomersFilter = { facilityId: string | null; search: string };

export async function getRecentCustomers(filter: RecentCustomersFilter): Promise<RecentCustomer[]> {
  const params = new URLSearchParams();
  if (filter.facilityId) params.set('facilityId', filter.facilityId);
  if (filter.search) params.set('search', filter.search);
  const response = await apiRequest('GET', `/api/dashboard/recent-customers?${params}`);
  return response.json();
}

export const recentCustomersQueryOptions = (filter: RecentCustomersFilter) =>
  queryOptions({ queryKey: [...dashboardQueryKey, 'recent-customers', filter], queryFn: () => getRecentCustomers(filter) });

export function useRecentCustomers(filter: RecentCustomersFilter) {
  return useQuery({ ...recentCustomersQueryOptions(filter), placeholderData: keepPreviousData });
}
