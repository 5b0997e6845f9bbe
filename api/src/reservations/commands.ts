import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { UNIT_TAKEN_MESSAGE, type JoinWaitlistCommand, type SubmitReservationCommand } from '@storage/contracts/public';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { addCustomer, customerIdByEmail } from '../customers/commands.ts';
import { startLease } from '../leases/commands.ts';
import { releaseUnit, reserveUnit } from '../units/commands.ts';
import { unitAggregate } from '../units/unit.ts';
import { decideReservation, requireMoveInNotPast, type ReservationCommand } from './businessLogic.ts';
import { reservationAggregate } from './reservation.ts';

function decide(ctx: CommandContext, command: ReservationCommand) {
  return handleCommand(ctx, streams.reservation(command.reservationId), reservationAggregate, (state) => decideReservation(command, state));
}

async function reservingCustomer(ctx: CommandContext, request: SubmitReservationCommand, facilityId: string | null): Promise<string> {
  const known = await customerIdByEmail(ctx, request.customerData.email);
  if (known) return known;
  const { moveInDate: _moveInDate, specialRequests: _specialRequests, ...contact } = request.customerData;
  try {
    const added = await addCustomer(ctx, { ...contact, status: 'active', facilityId });
    if (added.state.status === 'none') throw new Error('An added customer has no state');
    return added.state.customerId;
  } catch (error) {
    // Another request with this email added the customer a moment ago.
    const racedIn = error instanceof ConflictError ? await customerIdByEmail(ctx, request.customerData.email) : null;
    if (!racedIn) throw error;
    return racedIn;
  }
}

/**
 * Holds the unit for the renter: the unit stream's revision decides which of racing reservations
 * gets it, so the unit is taken first and a loser leaves nothing behind.
 */
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
  try {
    const customerId = await reservingCustomer(ctx, request, unit.fields.facilityId);
    const details = { unitId: request.unitId, customerId, moveInDate: request.customerData.moveInDate, specialRequests: request.customerData.specialRequests };
    return await decide(ctx, { type: 'SubmitReservation', reservationId, now: ctx.now, details });
  } catch (error) {
    await releaseUnit(ctx, request.unitId, reservationId, 'Reservation failed');
    throw error;
  }
}

async function submittedReservation(ctx: CommandContext, reservationId: string) {
  const { state } = await loadAggregate(ctx.store, streams.reservation(reservationId), reservationAggregate);
  if (state.status === 'none') throw new NotFoundError('Reservation not found');
  return state;
}

/**
 * Moves the renter in. The lease takes the reservation's id, so a repeated convert finds the
 * lease it started before instead of starting a second one.
 */
export async function convertReservation(ctx: CommandContext, reservationId: string, terms: { startDate?: string; depositAmount: string | null }) {
  const reservation = await submittedReservation(ctx, reservationId);
  const leaseId = reservationId;
  decideReservation({ type: 'ConvertReservation', reservationId, leaseId }, reservation);
  const { state: unit } = await loadAggregate(ctx.store, streams.unit(reservation.details.unitId), unitAggregate);
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  const lease = await startLeaseOnce(ctx, leaseId, {
    customerId: reservation.details.customerId,
    unitId: reservation.details.unitId,
    startDate: terms.startDate ?? reservation.details.moveInDate,
    monthlyRate: unit.fields.monthlyRate,
    depositAmount: terms.depositAmount,
  });
  const converted = await decide(ctx, { type: 'ConvertReservation', reservationId, leaseId });
  return { ...converted, position: converted.position ?? lease.position };
}

async function startLeaseOnce(ctx: CommandContext, leaseId: string, terms: Parameters<typeof startLease>[1]) {
  try {
    return await startLease(ctx, terms, leaseId);
  } catch (error) {
    // A repeated convert: the lease was started by the earlier attempt.
    const { state } = await loadAggregate(ctx.store, streams.lease(leaseId), { initial: false, evolve: (held: boolean, e) => held || e.type === 'lease_started' });
    if (!state) throw error;
    return { position: null };
  }
}

export async function cancelReservation(ctx: CommandContext, reservationId: string, reason: string | null) {
  const result = await decide(ctx, { type: 'CancelReservation', reservationId, reason });
  if (result.state.status === 'none') return result;
  const released = await releaseUnit(ctx, result.state.details.unitId, reservationId, 'Reservation cancelled');
  return { ...result, position: released.position ?? result.position };
}

export async function expireReservation(ctx: CommandContext, reservationId: string) {
  const result = await decide(ctx, { type: 'ExpireReservation', reservationId });
  if (result.state.status !== 'expired') return result;
  const released = await releaseUnit(ctx, result.state.details.unitId, reservationId, 'Reservation expired');
  return { ...result, position: released.position ?? result.position };
}

export async function joinWaitlist(ctx: CommandContext, entry: JoinWaitlistCommand, entryId: string = randomUUID()) {
  return handleCommand(ctx, streams.waitlistEntry(entryId), { initial: false, evolve: () => true }, (exists) =>
    exists ? [] : [{ type: 'waitlist_joined', data: { entryId, ...entry } }],
  );
}
