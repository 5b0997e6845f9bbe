import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideUnit } from '../units/businessLogic.ts';
import { evolveUnit, initialUnitState } from '../units/unit.ts';
import { decideReservation } from './businessLogic.ts';
import { evolveReservation, initialReservationState, type ReservationState } from './reservation.ts';

const reservationId = '00000000-0000-4000-8000-000000000001';
const details = {
  unitId: '00000000-0000-4000-8000-000000000002',
  customerId: '00000000-0000-4000-8000-000000000003',
  contact: null,
  moveInDate: '2026-05-10',
  specialRequests: null,
};
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

  const conversion = {
    leaseId: reservationId,
    customerId: details.customerId,
    unitId: details.unitId,
    startDate: '2026-05-10',
    monthlyRate: '100.00',
    depositAmount: null,
    protectionPlanId: null,
    promotionId: null,
    channel: 'desk' as const,
  };
  const converting = () => decideReservation({ type: 'StartConversion', reservationId, conversion }, submitted()).reduce(evolveReservation, submitted());

  it('records the move-in as started before anything else, and then converts into its lease, once', () => {
    expect(decideReservation({ type: 'StartConversion', reservationId, conversion }, submitted())).toEqual([
      { type: 'reservation_conversion_started', data: { reservationId, ...conversion } },
    ]);
    // Converting needs a started move-in of the same lease.
    expect(() => decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, submitted())).toThrow(ConflictError);
    const events = decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, converting());
    expect(events).toEqual([{ type: 'reservation_converted', data: { reservationId, leaseId: reservationId } }]);
    const converted = events.reduce(evolveReservation, converting());
    expect(decideReservation({ type: 'ConvertReservation', reservationId, leaseId: reservationId }, converted)).toEqual([]);
    expect(decideReservation({ type: 'StartConversion', reservationId, conversion }, converted)).toEqual([]);
    expect(() => decideReservation({ type: 'CancelReservation', reservationId, reason: null }, converted)).toThrow(ConflictError);
    expect(decideReservation({ type: 'ExpireReservation', reservationId }, converted)).toEqual([]);
  });

  it('refuses a cancel once the move-in has started, expires nothing, and refuses a move-in after a cancel', () => {
    expect(() => decideReservation({ type: 'CancelReservation', reservationId, reason: null }, converting())).toThrow(/being moved in/);
    expect(decideReservation({ type: 'ExpireReservation', reservationId }, converting())).toEqual([]);
    // A repeat of the same move-in continues it; another lease is refused.
    expect(decideReservation({ type: 'StartConversion', reservationId, conversion }, converting())).toEqual([]);
    expect(() => decideReservation({ type: 'StartConversion', reservationId, conversion: { ...conversion, leaseId: details.unitId } }, converting())).toThrow(
      ConflictError,
    );
    const cancelled = decideReservation({ type: 'CancelReservation', reservationId, reason: null }, submitted()).reduce(evolveReservation, submitted());
    expect(() => decideReservation({ type: 'StartConversion', reservationId, conversion }, cancelled)).toThrow(/cancelled/);
  });

  it('reopens the reservation when its move-in is abandoned, and only the move-in under way', () => {
    const events = decideReservation({ type: 'AbandonConversion', reservationId, leaseId: reservationId, reason: 'refused' }, converting());
    expect(events).toEqual([{ type: 'reservation_conversion_abandoned', data: { reservationId, leaseId: reservationId, reason: 'refused' } }]);
    expect(events.reduce(evolveReservation, converting()).status).toBe('submitted');
    expect(decideReservation({ type: 'AbandonConversion', reservationId, leaseId: reservationId, reason: 'refused' }, submitted())).toEqual([]);
  });

  it('gives up a reservation that held its unit but was never submitted, so a late submit is refused', () => {
    const events = decideReservation({ type: 'AbandonSubmission', reservationId, unitId: details.unitId }, initialReservationState);
    expect(events).toEqual([{ type: 'reservation_submission_abandoned', data: { reservationId, unitId: details.unitId } }]);
    const abandoned = events.reduce(evolveReservation, initialReservationState);
    expect(() => decideReservation({ type: 'SubmitReservation', reservationId, details, now }, abandoned)).toThrow(ConflictError);
    expect(decideReservation({ type: 'AbandonSubmission', reservationId, unitId: details.unitId }, abandoned)).toEqual([]);
    expect(decideReservation({ type: 'AbandonSubmission', reservationId, unitId: details.unitId }, submitted())).toEqual([]);
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
  const unitAdded = {
    type: 'unit_added',
    data: {
      unitId: details.unitId,
      facilityId: null,
      unitNumber: 'R-1',
      building: 'A',
      size: '10x10',
      monthlyRate: '100.00',
      status: 'available',
      description: null,
      features: NO_UNIT_FEATURES,
    },
  } as const;
  const reserved = decideUnit({ type: 'ReserveUnit', unitId: details.unitId, reservationId }, evolveUnit(initialUnitState, unitAdded));
  const heldUnit = [unitAdded, ...reserved].reduce(evolveUnit, initialUnitState);

  it('is offered again when its own reservation ends, and only then', () => {
    expect(decideUnit({ type: 'ReleaseUnit', unitId: details.unitId, reservationId, reason: 'Reservation expired' }, heldUnit)).toEqual([
      { type: 'unit_status_changed', data: { unitId: details.unitId, status: 'available', reason: 'Reservation expired', leaseId: null, reservationId: null } },
    ]);
    const otherReservation = '00000000-0000-4000-8000-000000000009';
    const leaseId = '00000000-0000-4000-8000-000000000008';
    // A lease that took the unit but never started gives it back to the reservation, or to anyone.
    const occupied = decideUnit(
      { type: 'OccupyUnit', unitId: details.unitId, leaseId, customerId: details.customerId, reservation: { reservationId, customerId: details.customerId } },
      heldUnit,
    ).reduce(evolveUnit, heldUnit);
    expect(decideUnit({ type: 'ReturnUnit', unitId: details.unitId, leaseId, heldFor: reservationId, reason: 'Move-in abandoned' }, occupied)).toEqual([
      { type: 'unit_status_changed', data: { unitId: details.unitId, status: 'reserved', reason: 'Move-in abandoned', leaseId: null, reservationId } },
    ]);
    expect(decideUnit({ type: 'ReturnUnit', unitId: details.unitId, leaseId, heldFor: null, reason: 'Lease never started' }, occupied)[0]?.data).toMatchObject({
      status: 'available',
    });
    expect(decideUnit({ type: 'ReturnUnit', unitId: details.unitId, leaseId: otherReservation, heldFor: null, reason: 'x' }, occupied)).toEqual([]);
    expect(decideUnit({ type: 'ReleaseUnit', unitId: details.unitId, reservationId: otherReservation, reason: 'Reservation cancelled' }, heldUnit)).toEqual([]);
    expect(() => decideUnit({ type: 'ReserveUnit', unitId: details.unitId, reservationId: otherReservation }, heldUnit)).toThrow(ConflictError);
  });
});
