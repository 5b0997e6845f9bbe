import type { MoveInQuote } from '@storage/contracts/quotes';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { leasesQueryKey } from './get-leases.ts';

/** The terms a Move In would start a lease on; the rate and the deposit as typed (absent: the unit's rate, no deposit), the plan and the promotion chosen (absent: none). */
export type MoveInQuoteTerms = {
  unitId: string;
  startDate: string;
  monthlyRate?: string;
  depositAmount?: string;
  protectionPlanId?: string;
  promotionId?: string;
};

export async function getMoveInQuote({ unitId, ...terms }: MoveInQuoteTerms): Promise<MoveInQuote> {
  const params = new URLSearchParams({ startDate: terms.startDate });
  if (terms.monthlyRate) params.set('monthlyRate', terms.monthlyRate);
  if (terms.depositAmount) params.set('depositAmount', terms.depositAmount);
  if (terms.protectionPlanId) params.set('protectionPlanId', terms.protectionPlanId);
  if (terms.promotionId) params.set('promotionId', terms.promotionId);
  return (await apiRequest('GET', `/api/units/${encodeURIComponent(unitId)}/move-in-quote?${params}`)).json();
}

/**
 * The quote for the terms (null: not enough chosen yet). The previous quote stays on screen while
 * the next one loads, so the figures do not flicker as staff type.
 */
export function useMoveInQuote(terms: MoveInQuoteTerms | null) {
  return useQuery({
    queryKey: [...leasesQueryKey, 'move-in-quote', terms],
    queryFn: () => getMoveInQuote(terms!),
    enabled: terms !== null,
    // The billing settings or the unit's rate may change meanwhile: each opening asks afresh.
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}
