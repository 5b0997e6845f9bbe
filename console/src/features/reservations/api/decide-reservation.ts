import type { ConvertReservationRequest } from '@storage/contracts/reservations';
import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from '../../leases/api/get-leases.ts';
import { reservationsQueryKey } from './get-reservations.ts';

/** Who a reservation is converted for: its renter (absent), or for a pending contact an existing customer or a new one from the contact. */
export type ConversionCustomer = { customerId: string } | { createCustomer: true };

/** The lease a conversion starts: its start date and deposit, and the plan and the promotion (null: none). */
export type ConversionTerms = Pick<ConvertReservationRequest, 'startDate' | 'depositAmount' | 'protectionPlanId' | 'promotionId'>;

/**
 * Convert to lease (the renter moves in on the move-in date unless the terms say otherwise) or
 * cancel (the unit is free again). A pending contact (the renter typed an existing customer's
 * email) is converted for the customer staff choose: that existing customer, or a new one from the contact.
 */
export type ReservationDecision =
  | { reservationId: string; decision: 'convert'; customer?: ConversionCustomer; terms?: ConversionTerms }
  | { reservationId: string; decision: 'cancel' };

export async function decideReservation(decision: ReservationDecision): Promise<void> {
  const body = decision.decision === 'convert' ? { ...decision.customer, ...decision.terms } : {};
  await apiRequest('POST', `/api/reservations/${encodeURIComponent(decision.reservationId)}/${decision.decision}`, body);
}

export function useDecideReservation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideReservation,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reservationsQueryKey });
      void queryClient.invalidateQueries({ queryKey: leasesQueryKey });
    },
  });
}
