import type { AvailableUnit } from '@storage/contracts/public';
import { serverMessage } from '@storage/web-client/api';
import { useEffect, useState } from 'react';
import { fetchAvailableUnits } from './units-api.ts';

export type AvailableUnitsState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'loaded'; units: AvailableUnit[] };

/** Loads the available units (no retries); again only when `reload` changes. */
export function useAvailableUnits(reload = 0): AvailableUnitsState {
  const [state, setState] = useState<AvailableUnitsState>({ status: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` is the trigger to load again, not a value the effect reads
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    fetchAvailableUnits().then(
      (units) => current && setState({ status: 'loaded', units }),
      (error: Error) => current && setState({ status: 'error', message: serverMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [reload]);
  return state;
}
