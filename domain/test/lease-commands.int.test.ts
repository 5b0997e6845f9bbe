import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { ConflictError, NotFoundError } from '@storage/domain/commands/errors';
import { type CommandContext, envelope, handleCommand, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { decideLease } from '@storage/domain/leases/businessLogic';
import { endLease, startLease } from '@storage/domain/leases/commands';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { addUnit, reserveUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import { useTestEventStore } from '@storage/testing/database';
import { describe, expect, it } from 'vitest';

const testStore = useTestEventStore('leases');

function context(): CommandContext {
  return { store: testStore.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date('2025-06-01T10:00:00Z') };
}

async function newUnit() {
  const fields = {
    facilityId: null,
    unitNumber: `A-${randomUUID().slice(0, 8)}`,
    building: 'A',
    size: '10x10' as const,
    monthlyRate: '120.00',
    status: 'available' as const,
    description: null,
  };
  const { state } = await addUnit(context(), fields);
  if (state.status === 'none') throw new Error('unit not added');
  return state.unitId;
}

async function newCustomer() {
  const fields = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `${randomUUID()}@example.com`,
    phone: null,
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
    status: 'active' as const,
    facilityId: null,
  };
  const { state } = await addCustomer(context(), fields);
  if (state.status === 'none') throw new Error('customer not added');
  return state.customerId;
}

const termsFor = (customerId: string, unitId: string) => ({ customerId, unitId, startDate: '2025-06-01', monthlyRate: '120.00', depositAmount: null });

async function unitStatus(unitId: string) {
  const { state } = await loadAggregate(testStore.store, streams.unit(unitId), unitAggregate);
  return state.status === 'current' ? state.fields.status : 'none';
}

describe('leasing a unit', () => {
  it('gives one unit to exactly one of fifty simultaneous leases', async () => {
    const unitId = await newUnit();
    const customers = await Promise.all(Array.from({ length: 50 }, newCustomer));
    const results = await Promise.allSettled(customers.map((customerId) => startLease(context(), termsFor(customerId, unitId))));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r) => r.status === 'rejected')) expect(result.reason).toBeInstanceOf(ConflictError);
    const unitEvents = await testStore.store.readStream(streams.unit(unitId));
    expect(unitEvents.map((e) => e.type)).toEqual(['unit_added', 'unit_status_changed']);
  });

  it('frees the unit when the lease ends, for the next tenant', async () => {
    const unitId = await newUnit();
    const leaseId = randomUUID();
    await startLease(context(), termsFor(await newCustomer(), unitId), leaseId);
    expect(await unitStatus(unitId)).toBe('occupied');

    await endLease(context(), leaseId, '2025-08-31');
    expect(await unitStatus(unitId)).toBe('available');
    await startLease(context(), termsFor(await newCustomer(), unitId));
    expect(await unitStatus(unitId)).toBe('occupied');
  });

  it('leaves the unit untouched when the lease is refused', async () => {
    const unitId = await newUnit();
    await expect(startLease(context(), termsFor(randomUUID(), unitId))).rejects.toThrow(NotFoundError);
    await expect(startLease(context(), { ...termsFor(await newCustomer(), unitId), monthlyRate: '0.00' })).rejects.toThrow(
      /monthlyRate: must be more than 0.00/,
    );
    expect(await testStore.store.readStream(streams.unit(unitId))).toHaveLength(1);
  });

  it('finishes a move-out that stopped between ending the lease and freeing the unit, when it is repeated', async () => {
    const unitId = await newUnit();
    const leaseId = randomUUID();
    await startLease(context(), termsFor(await newCustomer(), unitId), leaseId);
    // The lease ends, then the attempt stops before the unit is freed.
    await handleCommand(context(), streams.lease(leaseId), leaseAggregate, (state) => decideLease({ type: 'EndLease', leaseId, endDate: '2025-08-31' }, state));
    expect(await unitStatus(unitId)).toBe('occupied');

    await endLease(context(), leaseId, '2025-08-31');
    expect(await unitStatus(unitId)).toBe('available');
    await expect(endLease(context(), leaseId, '2025-09-30')).rejects.toThrow(/already ended on 2025-08-31/);
  });

  it("leases a reserved unit only to the reservation's customer", async () => {
    const unitId = await newUnit();
    const [reserver, other] = [await newCustomer(), await newCustomer()];
    const reservationId = randomUUID();
    const submitted = { reservationId, unitId, customerId: reserver, contact: null, moveInDate: '2025-06-10', specialRequests: null };
    await testStore.store.append(streams.reservation(reservationId), [envelope(context(), { type: 'reservation_submitted', data: submitted })], {
      expectedRevision: 'no_stream',
    });
    await reserveUnit(context(), unitId, reservationId);

    await expect(startLease(context(), termsFor(other, unitId))).rejects.toThrow(/reserved for another customer/);
    expect(await unitStatus(unitId)).toBe('reserved');
    await startLease(context(), termsFor(reserver, unitId));
    expect(await unitStatus(unitId)).toBe('occupied');
  });
});
