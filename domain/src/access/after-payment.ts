import { streams } from '@storage/contracts/events';
import type { PaymentAccess } from '@storage/contracts/payments';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { aggregateFrom, loadAggregate, toDomainEvent } from '../commands/handle.ts';
import { wouldClear } from '../delinquency/clearing.ts';
import { delinquencyAggregate } from '../delinquency/delinquency.ts';
import { lockAggregate } from '../locks/lock.ts';
import { currentGateCodes } from './gate-codes.ts';
import { activeLeasesOf } from './lockout.ts';

// What a payment did to a locked-out renter's access, said only as far as the streams tell it: a
// payment clears the lockout through a reaction (delinquency_cleared, naming the payment's event
// as its cause) and access comes back through another (codes reinstated, locks back to normal),
// so right after the payment the lockout is often still in place though it is sure to end.

/** Whether a lockout holds the renter: a gate code suspended for it, or a lock of theirs overlocked (the read model nominates, the streams say). */
async function lockedOut(store: EventStore, pool: DatabasePool, customerId: string): Promise<boolean> {
  const leases = await activeLeasesOf(pool, customerId);
  const codes = await currentGateCodes(
    store,
    leases.map((l) => l.lease_id),
  );
  if ([...codes.values()].some((code) => code.suspended === 'lockout')) return true;
  for (const lockId of leases.flatMap((l) => l.lock_ids)) {
    const { state } = await loadAggregate(store, streams.lock(lockId), lockAggregate);
    if (state.status === 'current' && state.desired === 'overlocked') return true;
  }
  return false;
}

/**
 * The renter's access after the payment whose events are `paymentEventIds`: null when no lockout
 * concerns them. restored: this payment cleared their lockout and nothing holds them out now;
 * restoring: it is cleared (or will be, the past-due balance being low enough) and the codes
 * and locks are not all back yet; suspended: the lockout holds and the payment did not end it.
 */
export async function accessAfterPayment(
  deps: { store: EventStore; pool: DatabasePool },
  customerId: string,
  paymentEventIds: ReadonlySet<string>,
  now: Date,
): Promise<PaymentAccess | null> {
  const recorded = await deps.store.readStream(streams.delinquency(customerId));
  let lockoutSinceClear = false;
  let lastClear: { causationId: string | null; endedLockout: boolean } | null = null;
  for (const e of recorded) {
    const event = toDomainEvent(e);
    if (event.type === 'delinquency_step_taken' && event.data.kind === 'lockout') lockoutSinceClear = true;
    if (event.type === 'delinquency_cleared') {
      lastClear = { causationId: e.metadata.causationId, endedLockout: lockoutSinceClear };
      lockoutSinceClear = false;
    }
  }
  if (lockoutSinceClear) {
    const { state } = aggregateFrom(recorded, delinquencyAggregate);
    return (await wouldClear(deps.store, customerId, state, now)) ? 'restoring' : 'suspended';
  }
  const held = await lockedOut(deps.store, deps.pool, customerId);
  const clearedByThis = lastClear?.endedLockout === true && lastClear.causationId !== null && paymentEventIds.has(lastClear.causationId);
  if (clearedByThis) return held ? 'restoring' : 'restored';
  // Cleared before this payment, and the restore has not caught up yet.
  return held ? 'restoring' : null;
}
