import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from '../../leases/api/get-leases.ts';
import { reservationsQueryKey } from './get-reservations.ts';

/**
 * Convert to lease (the renter moves in on the move-in date) or cancel (the unit is free again).
 * A pending contact (the renter typed an existing customer's email) is converted for the
 * customer staff choose: that existing customer, or a new one from the contact.
 */
export type ReservationDecision =
  | { reservationId: string; decision: 'convert'; customer?: { customerId: string } | { createCustomer: true } }
  | { reservationId: string; decision: 'cancel' };

export async function decideReservation(decision: ReservationDecision): Promise<void> {
  const body = decision.decision === 'convert' ? { ...decision.customer } : {};
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
