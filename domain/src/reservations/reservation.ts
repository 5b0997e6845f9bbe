import type { DomainEvent, EventData } from '@storage/contracts/events';

export type ReservationDetails = Omit<EventData<'reservation_submitted'>, 'reservationId'>;
/** The move-in staff started: the lease the reservation becomes, and its terms. */
export type Conversion = Omit<EventData<'reservation_conversion_started'>, 'reservationId'>;

export type ReservationState =
  | { status: 'none' }
  /** Held a unit but never submitted (the request stopped): it can no longer be submitted. */
  | { status: 'abandoned'; reservationId: string; unitId: string }
  | { status: 'submitted' | 'cancelled' | 'expired'; reservationId: string; details: ReservationDetails }
  /** Being moved in: the lease steps are under way (or stopped, for the recovery process to finish). */
  | { status: 'converting'; reservationId: string; details: ReservationDetails; conversion: Conversion }
  | { status: 'converted'; reservationId: string; details: ReservationDetails; leaseId: string; conversion: Conversion | null };

export const initialReservationState: ReservationState = { status: 'none' };

export function evolveReservation(state: ReservationState, event: DomainEvent): ReservationState {
  if (event.type === 'reservation_submitted') {
    const { reservationId, ...details } = event.data;
    return { status: 'submitted', reservationId, details };
  }
  if (event.type === 'reservation_submission_abandoned') {
    return state.status === 'none' ? { status: 'abandoned', reservationId: event.data.reservationId, unitId: event.data.unitId } : state;
  }
  if (state.status === 'none' || state.status === 'abandoned') return state;
  const { reservationId, details } = state;
  switch (event.type) {
    case 'reservation_conversion_started': {
      const { reservationId: _id, ...conversion } = event.data;
      return { status: 'converting', reservationId, details, conversion };
    }
    case 'reservation_conversion_abandoned':
      return { status: 'submitted', reservationId, details };
    case 'reservation_converted':
      // Conversions recorded before the move-in was a workflow have no start.
      return { status: 'converted', reservationId, details, leaseId: event.data.leaseId, conversion: state.status === 'converting' ? state.conversion : null };
    case 'reservation_cancelled':
      return { status: 'cancelled', reservationId, details };
    case 'reservation_expired':
      return { status: 'expired', reservationId, details };
    default:
      return state;
  }
}

export const reservationAggregate = { initial: initialReservationState, evolve: evolveReservation };

/** The customer the reservation is for: the one it was submitted by, or the one staff chose when moving the renter in. */
export function reservationCustomerId(state: ReservationState): string | null {
  if (state.status === 'none' || state.status === 'abandoned') return null;
  if (state.status === 'converting') return state.conversion.customerId;
  if (state.status === 'converted' && state.conversion) return state.conversion.customerId;
  return state.details.customerId;
}
