import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { useTestEventStore } from '@storage/ops/testing/database';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { loadAggregate, type CommandContext } from '../commands/handle.ts';
import { addCustomer } from '../customers/commands.ts';
import { addUnit } from '../units/commands.ts';
import { unitAggregate } from '../units/unit.ts';
import { endLease, startLease } from './commands.ts';

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
    await expect(startLease(context(), { ...termsFor(await newCustomer(), unitId), monthlyRate: '0.00' })).rejects.toThrow(/monthly rate/);
    expect(await testStore.store.readStream(streams.unit(unitId))).toHaveLength(1);
  });
});
