import type { Settings } from '@storage/contracts/settings';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const settingsQueryKey = ['settings'] as const;

export async function getSettings(): Promise<Settings> {
  const response = await apiRequest('GET', '/api/settings');
  return response.json();
}

export const settingsQueryOptions = () => queryOptions({ queryKey: settingsQueryKey, queryFn: getSettings });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
