import type { ConfirmReservationRequest, ReservationRequested, SubmitReservationRequest, SubmittedReservation } from '@storage/contracts/public';
import { apiRequest } from '@storage/web-client/api';

/** Asks for the unit: a link to confirm it is mailed to the email typed. */
export async function submitReservation(request: SubmitReservationRequest): Promise<ReservationRequested> {
  return (await apiRequest('POST', '/api/public/reservations', request)).json() as Promise<ReservationRequested>;
}

/** Confirms the reservation from the mailed link: the unit is held from now on. */
export async function confirmReservation(request: ConfirmReservationRequest): Promise<SubmittedReservation> {
  return (await apiRequest('POST', '/api/public/reservations/confirm', request)).json() as Promise<SubmittedReservation>;
}
