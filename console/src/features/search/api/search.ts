import type { SearchResults } from '@storage/contracts/search';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

export async function searchEverything(q: string, facilityId: string | null): Promise<SearchResults> {
  const params = new URLSearchParams({ q });
  if (facilityId) params.set('facilityId', facilityId);
  return (await apiRequest('GET', `/api/search?${params}`)).json();
}

/** The global search's answer for a term (none asked for an empty one). */
export const searchQueryOptions = (q: string, facilityId: string | null) =>
  queryOptions({ queryKey: ['search', q, facilityId], queryFn: () => searchEverything(q, facilityId), enabled: q.length > 0 });

/** The global search's answer for a term; the last answer stays while the next loads. */
export function useSearchEverything(q: string, facilityId: string | null) {
  return useQuery({ ...searchQueryOptions(q, facilityId), placeholderData: keepPreviousData });
}
