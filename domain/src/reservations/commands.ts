import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { type JoinWaitlistCommand, type SubmitReservationCommand, UNIT_TAKEN_MESSAGE } from '@storage/contracts/public';
import type { ConvertReservationCommand } from '@storage/contracts/reservations';
import { rentalExtras } from '../billing/offers.ts';
import { facilityBilling } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate, stepWritten } from '../commands/handle.ts';
import { addCustomerOnce, customerForOnlineReservation, requireCurrentCustomer } from '../customers/commands.ts';
import { customerAggregate } from '../customers/customer.ts';
import { decideLease } from '../leases/businessLogic.ts';
import { startLease } from '../leases/commands.ts';
import { initialLeaseState, leaseAggregate } from '../leases/lease.ts';
import { releaseUnit, reserveUnit } from '../units/commands.ts';
import { unitAggregate } from '../units/unit.ts';
import { decideReservation, type ReservationCommand, requireMoveInNotPast } from './businessLogic.ts';
import { type Conversion, type ReservationDetails, reservationAggregate } from './reservation.ts';

// Two workflows span aggregates here. Each decides on the aggregate that owns the decision first
// and finishes or undoes the rest; a request that stops half-way (a crash) is finished or undone
// by the recovery process (api/src/workflows/recovery.ts), which the projector runs.
//   Online reservation: unit held → customer resolved → reservation submitted.
//   Move-in: reservation conversion started → unit occupied → lease started → reservation converted.
//   Cancel or expiry: reservation ended → unit released.

function decide(ctx: CommandContext, command: ReservationCommand) {
  return handleCommand(ctx, streams.reservation(command.reservationId), reservationAggregate, (state) => decideReservation(command, state));
}

/**
 * Holds the unit for the renter: the unit stream's revision decides which of racing reservations
 * gets it, so the unit is taken first and a loser leaves nothing behind. The reservation keeps
 * the contact as typed; it is attached to a customer only when the email is new (see
 * customerForOnlineReservation).
 */
/**
 * Whether the visitor may ask for the unit now (it exists and is available, the move-in is not
 * past): checked when the request is made, so a visitor learns at once; decided again when they
 * confirm it (submitReservation), since the unit is not held meanwhile.
 */
export async function requireReservable(ctx: CommandContext, request: SubmitReservationCommand): Promise<{ unitNumber: string; building: string }> {
  requireMoveInNotPast(request.customerData.moveInDate, ctx.now);
  const { state: unit } = await loadAggregate(ctx.store, streams.unit(request.unitId), unitAggregate);
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  if (unit.fields.status !== 'available') throw new ConflictError(UNIT_TAKEN_MESSAGE, 'unitId');
  return { unitNumber: unit.fields.unitNumber, building: unit.fields.building };
}

export async function submitReservation(ctx: CommandContext, request: SubmitReservationCommand, reservationId: string = randomUUID()) {
  // Refused here, a bad reservation never touches the unit.
  requireMoveInNotPast(request.customerData.moveInDate, ctx.now);
  const { state: unit } = await loadAggregate(ctx.store, streams.unit(request.unitId), unitAggregate);
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  try {
    await reserveUnit(ctx, request.unitId, reservationId);
  } catch (error) {
    if (error instanceof ConflictError) throw new ConflictError(UNIT_TAKEN_MESSAGE, 'unitId');
    throw error;
  }
  await stepWritten(ctx, 'reservation:unit-held');
  try {
    const { moveInDate, specialRequests, ...contact } = request.customerData;
    const customerId = await customerForOnlineReservation(ctx, { ...contact, status: 'active', facilityId: unit.fields.facilityId });
    await stepWritten(ctx, 'reservation:customer-resolved');
    const details = { unitId: request.unitId, customerId, contact, moveInDate, specialRequests };
    return await decide(ctx, { type: 'SubmitReservation', reservationId, now: ctx.now, details });
  } catch (error) {
    await releaseUnit(ctx, request.unitId, reservationId, 'Reservation failed');
    throw error;
  }
}

async function existingReservation(ctx: CommandContext, reservationId: string) {
  const { state } = await loadAggregate(ctx.store, streams.reservation(reservationId), reservationAggregate);
  if (state.status === 'none' || state.status === 'abandoned') throw new NotFoundError('Reservation not found');
  return state;
}

type SubmittedReservation = { status: 'submitted'; reservationId: string; details: ReservationDetails };

/** The customer the move-in is for: the reservation's own, or (a pending contact) the one staff chose. */
async function conversionCustomer(
  ctx: CommandContext,
  reservation: SubmittedReservation,
  choice: Pick<ConvertReservationCommand, 'customerId' | 'createCustomer'>,
  facilityId: string | null,
): Promise<string> {
  const own = reservation.details.customerId;
  if (own !== null) {
    if (choice.customerId !== undefined && choice.customerId !== own)
      throw new DomainRuleError('customerId: this reservation already belongs to its customer', 'customerId');
    return own;
  }
  if (choice.customerId !== undefined) {
    const { state } = await loadAggregate(ctx.store, streams.customer(choice.customerId), customerAggregate);
    if (state.status !== 'current') throw new DomainRuleError('customerId: Customer not found', 'customerId');
    return choice.customerId;
  }
  const contact = reservation.details.contact;
  if (choice.createCustomer && contact) {
    // Derived from the reservation, so a repeated move-in finds the customer it added before.
    const customerId = derivedId('reservation-customer', reservation.reservationId);
    if (!(await addCustomerOnce(ctx, { ...contact, status: 'active', facilityId }, customerId))) {
      throw new ConflictError(`A customer with the email ${contact.email} already exists: choose that customer instead`, 'createCustomer');
    }
    await stepWritten(ctx, 'conversion:customer-added');
    return customerId;
  }
  throw new DomainRuleError(
    'customerId: the renter typed the email of an existing customer; choose the customer (customerId) or add a new one (createCustomer)',
    'customerId',
  );
}

/**
 * Moves the renter in. The reservation decides first (conversion started, naming the lease and
 * its terms): from then on a cancel or an expiry is refused, and a cancelled reservation cannot
 * be moved in. The lease takes the reservation's id, so a repeated convert continues the lease it
 * started before instead of starting a second one.
 */
export async function convertReservation(ctx: CommandContext, reservationId: string, terms: ConvertReservationCommand, channel: 'desk' | 'online' = 'desk') {
  const reservation = await existingReservation(ctx, reservationId);
  const leaseId = reservationId;
  if (reservation.status === 'converting') return finishConversion(ctx, reservationId, reservation.conversion);
  if (reservation.status !== 'submitted') {
    // Converted into this lease before: nothing more to do. Cancelled or expired: refused.
    decideReservation({ type: 'ConvertReservation', reservationId, leaseId }, reservation);
    return { state: reservation, events: [], position: null };
  }
  const { state: unit } = await loadAggregate(ctx.store, streams.unit(reservation.details.unitId), unitAggregate);
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  const customerId = await conversionCustomer(ctx, { ...reservation, status: 'submitted' }, terms, unit.fields.facilityId);
  const conversion: Conversion = {
    leaseId,
    customerId,
    unitId: reservation.details.unitId,
    startDate: terms.startDate ?? reservation.details.moveInDate,
    monthlyRate: unit.fields.monthlyRate,
    depositAmount: terms.depositAmount,
    protectionPlanId: terms.protectionPlanId ?? null,
    promotionId: terms.promotionId ?? null,
    channel,
  };
  // Refused here, a bad lease never starts the move-in.
  await requireCurrentCustomer(ctx, customerId);
  const { leaseId: _leaseId, protectionPlanId, promotionId, channel: _channel, ...leaseTerms } = conversion;
  decideLease({ type: 'StartLease', leaseId, terms: { ...leaseTerms, facilityId: unit.fields.facilityId } }, initialLeaseState);
  // The plan and the promotion are checked as the lease's start will check them, before the reservation decides.
  if (protectionPlanId !== null || promotionId !== null) {
    const at = { channel, facilityId: unit.fields.facilityId, unitSize: unit.fields.size, moveInDate: conversion.startDate };
    rentalExtras(await facilityBilling(ctx.store, unit.fields.facilityId), { protectionPlanId, promotionId }, at);
  }
  const started = await decide(ctx, { type: 'StartConversion', reservationId, conversion });
  await stepWritten(ctx, 'conversion:started');
  if (started.state.status !== 'converting') return started;
  const finished = await finishConversion(ctx, reservationId, started.state.conversion);
  return { ...finished, position: finished.position ?? started.position };
}

/**
 * The steps of a move-in after the reservation decided: each repeatable, so the request, a repeat
 * of it and the recovery process may all run them. A lease that is refused gives the unit back
 * to the reservation and reopens it (conversion abandoned), and the refusal is passed on.
 */
export async function finishConversion(ctx: CommandContext, reservationId: string, conversion: Conversion) {
  const { leaseId, protectionPlanId, promotionId, channel, ...terms } = conversion;
  let leasePosition = null;
  try {
    leasePosition = (await startLeaseOnce(ctx, leaseId, terms, reservationId, { choices: { protectionPlanId, promotionId }, channel })).position;
  } catch (error) {
    if (error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError) {
      await decide(ctx, { type: 'AbandonConversion', reservationId, leaseId, reason: error.message });
    }
    throw error;
  }
  const converted = await decide(ctx, { type: 'ConvertReservation', reservationId, leaseId });
  return { ...converted, position: converted.position ?? leasePosition };
}

async function startLeaseOnce(
  ctx: CommandContext,
  leaseId: string,
  terms: Parameters<typeof startLease>[1],
  heldFor: string,
  options: Parameters<typeof startLease>[4],
) {
  try {
    return await startLease(ctx, terms, leaseId, heldFor, options);
  } catch (error) {
    // A repeated move-in: the lease was started by the earlier attempt.
    const { state } = await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate);
    if (state.status !== 'active' && state.status !== 'ended') throw error;
    return { position: null };
  }
}

export async function cancelReservation(ctx: CommandContext, reservationId: string, reason: string | null) {
  const result = await decide(ctx, { type: 'CancelReservation', reservationId, reason });
  if (result.state.status !== 'cancelled') return result;
  if (result.events.length > 0) await stepWritten(ctx, 'reservation:ended');
  const released = await releaseUnit(ctx, result.state.details.unitId, reservationId, 'Reservation cancelled');
  return { ...result, position: released.position ?? result.position };
}

export async function expireReservation(ctx: CommandContext, reservationId: string) {
  const result = await decide(ctx, { type: 'ExpireReservation', reservationId });
  if (result.state.status !== 'expired') return result;
  if (result.events.length > 0) await stepWritten(ctx, 'reservation:ended');
  const released = await releaseUnit(ctx, result.state.details.unitId, reservationId, 'Reservation expired');
  return { ...result, position: released.position ?? result.position };
}

/** For the recovery process: a reservation that held `unitId` but was never submitted is given up, and the unit offered again. */
export async function abandonSubmission(ctx: CommandContext, reservationId: string, unitId: string) {
  const abandoned = await decide(ctx, { type: 'AbandonSubmission', reservationId, unitId });
  if (abandoned.state.status !== 'abandoned') return abandoned;
  const released = await releaseUnit(ctx, unitId, reservationId, 'Reservation never submitted');
  return { ...abandoned, position: released.position ?? abandoned.position };
}

export async function joinWaitlist(ctx: CommandContext, entry: JoinWaitlistCommand, entryId: string = randomUUID()) {
  return handleCommand(ctx, streams.waitlistEntry(entryId), { initial: false, evolve: () => true }, (exists) =>
    exists ? [] : [{ type: 'waitlist_joined', data: { entryId, ...entry } }],
  );
}
