import type { EntityHistory, HistoryStreamType } from '@storage/contracts/history';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

export async function getEntityHistory(streamType: HistoryStreamType, id: string, asOf: string | null): Promise<EntityHistory> {
  const query = asOf ? `?${new URLSearchParams({ asOf })}` : '';
  const response = await apiRequest('GET', `/api/history/${streamType}/${id}${query}`);
  return response.json();
}

export function useEntityHistory(streamType: HistoryStreamType, id: string, asOf: string | null) {
  return useQuery({
    queryKey: ['history', streamType, id, asOf],
    queryFn: () => getEntityHistory(streamType, id, asOf),
    placeholderData: keepPreviousData,
  });
}
