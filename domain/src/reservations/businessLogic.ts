import type { DomainEvent } from '@storage/contracts/events';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import type { Conversion, ReservationDetails, ReservationState } from './reservation.ts';

// The reservation stream owns the decision between moving the renter in and letting the unit go:
// a move-in is recorded as started on the reservation before the unit or the lease is touched,
// so a cancel or an expiry after it is refused (or a no-op), and a move-in after a cancel is refused.

export type SubmitReservation = { type: 'SubmitReservation'; reservationId: string; details: ReservationDetails; now: Date };
export type StartConversion = { type: 'StartConversion'; reservationId: string; conversion: Conversion };
export type ConvertReservation = { type: 'ConvertReservation'; reservationId: string; leaseId: string };
export type AbandonConversion = { type: 'AbandonConversion'; reservationId: string; leaseId: string; reason: string };
export type AbandonSubmission = { type: 'AbandonSubmission'; reservationId: string; unitId: string };
export type CancelReservation = { type: 'CancelReservation'; reservationId: string; reason: string | null };
export type ExpireReservation = { type: 'ExpireReservation'; reservationId: string };
export type ReservationCommand =
  | SubmitReservation
  | StartConversion
  | ConvertReservation
  | AbandonConversion
  | AbandonSubmission
  | CancelReservation
  | ExpireReservation;

/** The renter's "today" may be a day behind UTC: a move-in date is refused only when it is before yesterday (UTC). */
export function requireMoveInNotPast(moveInDate: string, now: Date, field = 'customerData.moveInDate'): void {
  const earliest = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  if (moveInDate < earliest) throw new DomainRuleError(`${field}: must not be in the past`, field);
}

function open(state: ReservationState) {
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
  return state;
}

const BEING_MOVED_IN = 'This reservation is being moved in';

export function submitReservation(command: SubmitReservation, state: ReservationState): DomainEvent[] {
  if (state.status === 'abandoned') throw new ConflictError('This reservation took too long and its unit was let go. Please reserve again.');
  if (state.status !== 'none') return [];
  requireMoveInNotPast(command.details.moveInDate, command.now);
  return [{ type: 'reservation_submitted', data: { reservationId: command.reservationId, ...command.details } }];
}

export function startConversion(command: StartConversion, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  const { leaseId } = command.conversion;
  // A repeated move-in continues the one under way (or finished); another lease is refused.
  if (
    (reservation.status === 'converting' && reservation.conversion.leaseId === leaseId) ||
    (reservation.status === 'converted' && reservation.leaseId === leaseId)
  )
    return [];
  if (reservation.status === 'converting') throw new ConflictError(BEING_MOVED_IN);
  if (reservation.status !== 'submitted') throw new ConflictError(`This reservation is ${reservation.status}`);
  if (command.conversion.unitId !== reservation.details.unitId) throw new DomainRuleError('The lease must be for the reserved unit', 'unitId');
  return [{ type: 'reservation_conversion_started', data: { reservationId: command.reservationId, ...command.conversion } }];
}

export function convertReservation(command: ConvertReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  if (reservation.status === 'converted' && reservation.leaseId === command.leaseId) return [];
  if (reservation.status !== 'converting' || reservation.conversion.leaseId !== command.leaseId) {
    throw new ConflictError(`This reservation is ${reservation.status}`);
  }
  return [{ type: 'reservation_converted', data: { reservationId: command.reservationId, leaseId: command.leaseId } }];
}

export function abandonConversion(command: AbandonConversion, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  // Only the move-in under way is given up; a finished one stays.
  if (reservation.status !== 'converting' || reservation.conversion.leaseId !== command.leaseId) return [];
  return [{ type: 'reservation_conversion_abandoned', data: { reservationId: command.reservationId, leaseId: command.leaseId, reason: command.reason } }];
}

export function abandonSubmission(command: AbandonSubmission, state: ReservationState): DomainEvent[] {
  // Submitted meanwhile: the reservation stands. Abandoned before: nothing more to record.
  if (state.status !== 'none') return [];
  return [{ type: 'reservation_submission_abandoned', data: { reservationId: command.reservationId, unitId: command.unitId } }];
}

export function cancelReservation(command: CancelReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  if (reservation.status === 'cancelled') return [];
  if (reservation.status === 'converting') throw new ConflictError(BEING_MOVED_IN);
  if (reservation.status !== 'submitted') throw new ConflictError(`This reservation is ${reservation.status}`);
  return [{ type: 'reservation_cancelled', data: { reservationId: command.reservationId, unitId: reservation.details.unitId, reason: command.reason } }];
}

export function expireReservation(command: ExpireReservation, state: ReservationState): DomainEvent[] {
  const reservation = open(state);
  // Converted, being converted or cancelled meanwhile: nothing is left to expire.
  if (reservation.status !== 'submitted') return [];
  return [{ type: 'reservation_expired', data: { reservationId: command.reservationId, unitId: reservation.details.unitId } }];
}

export function decideReservation(command: ReservationCommand, state: ReservationState): DomainEvent[] {
  switch (command.type) {
    case 'SubmitReservation':
      return submitReservation(command, state);
    case 'StartConversion':
      return startConversion(command, state);
    case 'ConvertReservation':
      return convertReservation(command, state);
    case 'AbandonConversion':
      return abandonConversion(command, state);
    case 'AbandonSubmission':
      return abandonSubmission(command, state);
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
