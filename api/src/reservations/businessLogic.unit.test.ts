import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideUnit } from '../units/businessLogic.ts';
import { evolveUnit, initialUnitState } from '../units/unit.ts';
import { decideReservation } from './businessLogic.ts';
import { evolveReservation, initialReservationState, type ReservationState } from './reservation.ts';

const reservationId = '00000000-0000-4000-8000-000000000001';
const details = { unitId: '00000000-0000-4000-8000-000000000002', customerId: '00000000-0000-4000-8000-000000000003', contact: null, moveInDate: '2026-05-10', specialRequests: null };
const now = new Date('2026-05-10T12:00:00Z');

function submitted(): ReservationState {
  const events = decideReservation({ type: 'SubmitReservation', reservationId, details, now }, initialReservationState);
  return events.reduce(evolveReservation, initialReservationState);
}

describe('reservation decisions', () => {
  it('submits once; a repeat changes nothing', () => {
    const state = submitted();
    expect(state.status).toBe('submitted');
    expect(decideReservation({ type: 'SubmitReservation', reservationId, details, now }, state)).toEqual([]);
  });

  it('refuses a move-in date in the past, allowing the renter a time zone behind UTC', () => {
    const submit = (moveInDate: string) => () =>
      decideReservation({ type: 'SubmitReservation', reservationId, details: { ...details, moveInDate }, now }, initialReservationState);
    expect(submit('2026-05-09')).not.toThrow();
    expect(submit('2026-05-08')).toThrow(DomainRuleError);
  });

  it('converts an open reservation into its lease, once', () => {
    const events = decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, submitted());
    expect(events).toEqual([{ type: 'reservation_converted', data: { reservationId, leaseId: reservationId } }]);
    const converted = events.reduce(evolveReservation, submitted());
    expect(decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, converted)).toEqual([]);
    expect(() => decideReservation({ type: 'CancelReservation', reservationId, reason: null }, converted)).toThrow(ConflictError);
    expect(decideReservation({ type: 'ExpireReservation', reservationId }, converted)).toEqual([]);
  });

  it('cancels or expires only an open reservation, naming its unit', () => {
    expect(decideReservation({ type: 'CancelReservation', reservationId, reason: 'Changed plans' }, submitted())).toEqual([
      { type: 'reservation_cancelled', data: { reservationId, unitId: details.unitId, reason: 'Changed plans' } },
    ]);
    const expired = decideReservation({ type: 'ExpireReservation', reservationId }, submitted()).reduce(evolveReservation, submitted());
    expect(expired.status).toBe('expired');
    expect(() => decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, expired)).toThrow(ConflictError);
    expect(() => decideReservation({ type: 'CancelReservation', reservationId, reason: null }, initialReservationState)).toThrow(NotFoundError);
  });
});

describe('the unit held for a reservation', () => {
  const unitAdded = { type: 'unit_added', data: { unitId: details.unitId, facilityId: null, unitNumber: 'R-1', building: 'A', size: '10x10', monthlyRate: '100.00', status: 'available', description: null } } as const;
  const reserved = decideUnit({ type: 'ReserveUnit', unitId: details.unitId, reservationId }, evolveUnit(initialUnitState, unitAdded));
  const heldUnit = [unitAdded, ...reserved].reduce(evolveUnit, initialUnitState);

  it('is offered again when its own reservation ends, and only then', () => {
    expect(decideUnit({ type: 'ReleaseUnit', unitId: details.unitId, reservationId, reason: 'Reservation expired' }, heldUnit)).toEqual([
      { type: 'unit_status_changed', data: { unitId: details.unitId, status: 'available', reason: 'Reservation expired', leaseId: null, reservationId: null } },
    ]);
    const otherReservation = '00000000-0000-4000-8000-000000000009';
    expect(decideUnit({ type: 'ReleaseUnit', unitId: details.unitId, reservationId: otherReservation, reason: 'Reservation cancelled' }, heldUnit)).toEqual([]);
    expect(() => decideUnit({ type: 'ReserveUnit', unitId: details.unitId, reservationId: otherReservation }, heldUnit)).toThrow(ConflictError);
  });
});
