import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { ReservationDetails, ReservationState } from './reservation.ts';

export type SubmitReservation = { type: 'SubmitReservation'; reservationId: string; details: ReservationDetails; now: Date };
export type ConvertReservation = { type: 'ConvertReservation'; reservationId: string; leaseId: string };
export type CancelReservation = { type: 'CancelReservation'; reservationId: string; reason: string | null };
export type ExpireReservation = { type: 'ExpireReservation'; reservationId: string };
export type ReservationCommand = SubmitReservation | ConvertReservation | CancelReservation | ExpireReservation;

/** The renter's "today" may be a day behind UTC: a move-in date is refused only when it is before yesterday (UTC). */
export function requireMoveInNotPast(moveInDate: string, now: Date): void {
  const earliest = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  if (moveInDate < earliest) throw new DomainRuleError('customerData.moveInDate: must not be in the past', 'customerData.moveInDate');
}

function open(state: ReservationState) {
  if (state.status === 'none') throw new NotFoundError('Reservation not found');
  return state;
}

export function submitReservation(command: SubmitReservation, state: ReservationState): DomainEvent[] {
  if (state.status !== 'none') return [];
  requireMoveInNotPast(command.details.moveInDate, command.now);
  return [{ type: 'reservation_submitted', data: { reservationId: command.reservationId, ...command.details } }];
}

export function convertReservation(command: ConvertReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  if (reservation.status === 'converted' && reservation.leaseId === command.leaseId) return [];
  if (reservation.status !== 'submitted') throw new ConflictError(`This reservation is ${reservation.status}`);
  return [{ type: 'reservation_converted', data: { reservationId: command.reservationId, leaseId: command.leaseId } }];
}

export function cancelReservation(command: CancelReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  if (reservation.status === 'cancelled') return [];
  if (reservation.status !== 'submitted') throw new ConflictError(`This reservation is ${reservation.status}`);
  return [{ type: 'reservation_cancelled', data: { reservationId: command.reservationId, unitId: reservation.details.unitId, reason: command.reason } }];
}

export function expireReservation(command: ExpireReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  // Converted or cancelled meanwhile: nothing is left to expire.
  if (reservation.status !== 'submitted') return [];
  return [{ type: 'reservation_expired', data: { reservationId: command.reservationId, unitId: reservation.details.unitId } }];
}

export function decideReservation(command: ReservationCommand, state: ReservationState): DomainEvent[] {
  switch (command.type) {
    case 'SubmitReservation':
      return submitReservation(command, state);
    case 'ConvertReservation':
      return convertReservation(command, state);
    case 'CancelReservation':
      return cancelReservation(command, state);
    case 'ExpireReservation':
      return expireReservation(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
