import type { SubmitReservationRequest, SubmittedReservation } from '@storage/contracts/public';
import { apiRequest } from '@storage/web-client/api';

export async function submitReservation(request: SubmitReservationRequest): Promise<SubmittedReservation> {
  return (await apiRequest('POST', '/api/public/reservations', request)).json() as Promise<SubmittedReservation>;
}
