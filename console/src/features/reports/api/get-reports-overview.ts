import type { ReportsOverview } from '@storage/contracts/reports';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export async function getReportsOverview(facilityId: string | null): Promise<ReportsOverview> {
  const response = await apiRequest('GET', facilityId ? `/api/reports/overview?facilityId=${encodeURIComponent(facilityId)}` : '/api/reports/overview');
  return response.json();
}

export const reportsOverviewQueryOptions = (facilityId: string | null) =>
  queryOptions({ queryKey: ['reports', 'overview', facilityId], queryFn: () => getReportsOverview(facilityId), staleTime: 0 });

export function useReportsOverview(facilityId: string | null) {
  return useQuery(reportsOverviewQueryOptions(facilityId));
}
