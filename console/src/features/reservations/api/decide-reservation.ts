import { apiRequest } from '@storage/web-client/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { leasesQueryKey } from '../../leases/api/get-leases.ts';
import { reservationsQueryKey } from './get-reservations.ts';

/** Convert to lease (the renter moves in on the move-in date) or cancel (the unit is free again). */
export type ReservationDecision = { reservationId: string; decision: 'convert' | 'cancel' };

export async function decideReservation({ reservationId, decision }: ReservationDecision): Promise<void> {
  await apiRequest('POST', `/api/reservations/${encodeURIComponent(reservationId)}/${decision}`, {});
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
