import type { PublicMoveInQuote } from '@storage/contracts/quotes';
import { apiRequest, serverMessage } from '@storage/web-client/api';
import { useEffect, useState } from 'react';

/** What the renter pays at move-in for the unit on the day: the billing engine's own figures. */
export async function fetchMoveInQuote(unitId: string, moveInDate: string): Promise<PublicMoveInQuote> {
  const params = new URLSearchParams({ moveInDate });
  return (await apiRequest('GET', `/api/public/units/${encodeURIComponent(unitId)}/move-in-quote?${params}`)).json() as Promise<PublicMoveInQuote>;
}

export type MoveInQuoteState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'loaded'; quote: PublicMoveInQuote };

/** Loads the quote for the unit and day (no retries), again whenever either changes; null: nothing to quote. */
export function useMoveInQuote(unitId: string | null, moveInDate: string | null): MoveInQuoteState | null {
  const [state, setState] = useState<MoveInQuoteState>({ status: 'loading' });
  useEffect(() => {
    if (!unitId || !moveInDate) return;
    let current = true;
    setState({ status: 'loading' });
    fetchMoveInQuote(unitId, moveInDate).then(
      (quote) => current && setState({ status: 'loaded', quote }),
      (error: Error) => current && setState({ status: 'error', message: serverMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [unitId, moveInDate]);
  return unitId && moveInDate ? state : null;
}
