import type { ReadModelFailure, ReadModelJob, ReadModelJobKind } from '@storage/contracts/read-model';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQuery } from '@tanstack/react-query';

/** How often a running job's progress is asked for. */
const POLL_MS = 1000;
/** How often the failing projections are asked for while the card is open (a retry may clear one). */
const FAILURES_POLL_MS = 5000;

/** A verification, a rebuild of the whole read model, or (`projection`) a rebuild of that projection's tables alone. */
export interface ReadModelJobStart {
  kind: ReadModelJobKind;
  projection?: string;
}

export async function startReadModelJob({ kind, projection }: ReadModelJobStart): Promise<ReadModelJob> {
  const response = await apiRequest('POST', `/api/read-model/${kind}`, projection === undefined ? undefined : { projection });
  return response.json();
}

export async function getReadModelJob(id: string): Promise<ReadModelJob> {
  const response = await apiRequest('GET', `/api/read-model/jobs/${encodeURIComponent(id)}`);
  return response.json();
}

export async function getReadModelFailures(): Promise<ReadModelFailure[]> {
  const response = await apiRequest('GET', '/api/read-model/failures');
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

/** The projections failing on an event, with the error and what each holds. */
export function useReadModelFailures() {
  return useQuery({ queryKey: ['read-model-failures'], queryFn: getReadModelFailures, refetchInterval: FAILURES_POLL_MS });
}
