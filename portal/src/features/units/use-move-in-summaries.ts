import type { AvailableUnit } from '@storage/contracts/public';
import type { MoveInSummary } from '@storage/contracts/quotes';
import { useEffect, useState } from 'react';
import { fetchMoveInSummaries } from './units-api.ts';

const NONE: ReadonlyMap<string, MoveInSummary> = new Map();

/**
 * Each listed unit's move-in summary, by unit id, once loaded. A unit without one (still loading,
 * or its quote could not be made) shows no figure: the list never guesses one.
 */
export function useMoveInSummaries(units: readonly AvailableUnit[] | null): ReadonlyMap<string, MoveInSummary> {
  const [summaries, setSummaries] = useState(NONE);
  const ids = units?.map((unit) => unit.id).join(',') ?? '';
  useEffect(() => {
    setSummaries(NONE);
    if (!ids) return;
    let current = true;
    fetchMoveInSummaries(ids.split(',')).then((found) => current && setSummaries(new Map(found.map((summary) => [summary.unitId, summary]))));
    return () => {
      current = false;
    };
  }, [ids]);
  return summaries;
}
