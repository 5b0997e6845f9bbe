import type { AvailableUnit, JoinWaitlistRequest } from '@storage/contracts/public';
import { MAX_MOVE_IN_SUMMARIES, type MoveInSummary } from '@storage/contracts/quotes';
import { apiRequest } from '@storage/web-client/api';

export async function fetchAvailableUnits(): Promise<AvailableUnit[]> {
  return (await apiRequest('GET', '/api/public/units/available')).json() as Promise<AvailableUnit[]>;
}

export async function joinWaitlist(entry: JoinWaitlistRequest): Promise<void> {
  await apiRequest('POST', '/api/public/waitlist', entry);
}

// The list asks for the page's units in a few requests of up to MAX_MOVE_IN_SUMMARIES each (never
// one per card); units past MAX_SUMMARY_REQUESTS of them simply show no move-in figure.
const MAX_SUMMARY_REQUESTS = 5;

/** What moving in today costs, for each unit the server could quote; a request that fails leaves its units out. */
export async function fetchMoveInSummaries(unitIds: readonly string[]): Promise<MoveInSummary[]> {
  const batches: string[][] = [];
  for (let start = 0; start < unitIds.length && batches.length < MAX_SUMMARY_REQUESTS; start += MAX_MOVE_IN_SUMMARIES)
    batches.push(unitIds.slice(start, start + MAX_MOVE_IN_SUMMARIES));
  const answers = await Promise.allSettled(
    batches.map(async (batch) => {
      const params = new URLSearchParams({ unitIds: batch.join(',') });
      return (await apiRequest('GET', `/api/public/units/move-in-summaries?${params}`)).json() as Promise<MoveInSummary[]>;
    }),
  );
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
}
