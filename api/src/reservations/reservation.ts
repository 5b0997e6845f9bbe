import type { DomainEvent, EventData } from '@storage/contracts/events';

export type ReservationDetails = Omit<EventData<'reservation_submitted'>, 'reservationId'>;

export type ReservationState =
  | { status: 'none' }
  | { status: 'submitted' | 'cancelled' | 'expired'; reservationId: string; details: ReservationDetails }
  | { status: 'converted'; reservationId: string; details: ReservationDetails; leaseId: string };

export const initialReservationState: ReservationState = { status: 'none' };

export function evolveReservation(state: ReservationState, event: DomainEvent): ReservationState {
  if (event.type === 'reservation_submitted') {
    const { reservationId, ...details } = event.data;
    return { status: 'submitted', reservationId, details };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'reservation_converted':
      return { ...state, status: 'converted', leaseId: event.data.leaseId };
    case 'reservation_cancelled':
      return { ...state, status: 'cancelled' };
    case 'reservation_expired':
      return { ...state, status: 'expired' };
    default:
      return state;
  }
}

export const reservationAggregate = { initial: initialReservationState, evolve: evolveReservation };
