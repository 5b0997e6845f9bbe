import type { ReadModelJob, ReadModelJobKind } from '@storage/contracts/read-model';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery } from '@tanstack/react-query';

/** How often a running job's progress is asked for. */
const POLL_MS = 1000;

export async function startReadModelJob(kind: ReadModelJobKind): Promise<ReadModelJob> {
  const response = await apiRequest('POST', `/api/read-model/${kind}`);
  return response.json();
}

export async function getReadModelJob(id: string): Promise<ReadModelJob> {
  const response = await apiRequest('GET', `/api/read-model/jobs/${encodeURIComponent(id)}`);
  return response.json();
}

export function useStartReadModelJob() {
  return useMutation({ mutationFn: startReadModelJob });
}

/** The job's progress, asked for until it has finished. */
export function useReadModelJob(id: string | null) {
  return useQuery({
    queryKey: ['read-model-jobs', id],
    queryFn: () => getReadModelJob(id!),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'completed' || query.state.data?.state === 'failed' ? false : POLL_MS),
  });
}
