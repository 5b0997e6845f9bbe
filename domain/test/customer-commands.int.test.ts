import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '@storage/domain/commands/errors';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer, archiveCustomer, listCustomerLease, updateCustomer } from '@storage/domain/customers/commands';
import { endLease, startLease } from '@storage/domain/leases/commands';
import { addUnit, occupyUnit, returnUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import type { EventStore } from '@storage/eventstore/port';
import { useTestEventStore } from '@storage/testing/database';
import { describe, expect, it } from 'vitest';

const testStore = useTestEventStore('customer_commands');

/** The store, counting the streams read through it. */
function counted(): { store: EventStore; reads: string[] } {
  const reads: string[] = [];
  const store = testStore.store;
  const counting: EventStore = Object.create(store, {
    readStream: {
      value: (stream: string, options?: Parameters<EventStore['readStream']>[1]) => {
        reads.push(stream);
        return store.readStream(stream, options);
      },
    },
  });
  return { store: counting, reads };
}

function context(store: EventStore): CommandContext {
  return { store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date('2025-06-01T10:00:00Z') };
}

const customer = (email: string) => ({
  firstName: 'Cora',
  lastName: 'Adds',
  email,
  phone: null,
  address: null,
  emergencyContact: null,
  emergencyPhone: null,
  status: 'active' as const,
  facilityId: null,
});

describe('adding a customer', () => {
  it('reads no stream: the email claim and the new customer are appended as new, their expected revisions check it', async () => {
    const { store, reads } = counted();
    const email = `cora-${randomUUID().slice(0, 8)}@example.com`;
    const result = await addCustomer(context(store), customer(email));
    expect(result.state.status).toBe('current');
    expect(reads).toEqual([]);
  });

  it('still refuses an email another customer holds, and takes one an archived customer let go', async () => {
    const email = `taken-${randomUUID().slice(0, 8)}@example.com`;
    const first = await addCustomer(context(testStore.store), customer(email));
    await expect(addCustomer(context(testStore.store), customer(email.toUpperCase()))).rejects.toThrow(ConflictError);
    if (first.state.status === 'none') throw new Error('the first customer was not added');
    await archiveCustomer(context(testStore.store), first.state.customerId);
    const again = await addCustomer(context(testStore.store), customer(email));
    expect(again.state.status).toBe('current');
  });

  it('reads the customer once to change them', async () => {
    const added = await addCustomer(context(testStore.store), customer(`edit-${randomUUID().slice(0, 8)}@example.com`));
    if (added.state.status === 'none') throw new Error('the customer was not added');
    const { store, reads } = counted();
    const changed = await updateCustomer(context(store), added.state.customerId, { phone: '555-0100' });
    expect(changed.state.status === 'current' && changed.state.fields.phone).toBe('555-0100');
    expect(reads).toEqual([`customer-${added.state.customerId}`]);
  });

  it('answers a conflict, not a duplicate, for an id that is already a customer', async () => {
    const customerId = randomUUID();
    await addCustomer(context(testStore.store), customer(`one-${randomUUID().slice(0, 8)}@example.com`), customerId);
    await expect(addCustomer(context(testStore.store), customer(`two-${randomUUID().slice(0, 8)}@example.com`), customerId)).rejects.toThrow(ConflictError);
  });
});

describe('archiving a customer', () => {
  const ctx = () => context(testStore.store);
  async function renterAndUnit() {
    const customerId = randomUUID();
    const unitId = randomUUID();
    await addCustomer(ctx(), customer(`renter-${randomUUID().slice(0, 8)}@example.com`), customerId);
    const unit = { facilityId: null, unitNumber: `R-${randomUUID().slice(0, 8)}`, building: 'A', size: '10x10' as const, monthlyRate: '90.00' };
    await addUnit(ctx(), { ...unit, status: 'available', description: null }, unitId);
    return { customerId, unitId };
  }

  it('finds the leases on the streams the customer lists: refused while one is in effect, done once it ended', async () => {
    const { customerId, unitId } = await renterAndUnit();
    const lease = await startLease(ctx(), { customerId, unitId, startDate: '2025-05-01', monthlyRate: '90.00', depositAmount: null }, randomUUID(), null, {
      bill: false,
    });
    if (lease.state.status !== 'active') throw new Error('the lease did not start');
    await expect(archiveCustomer(ctx(), customerId)).rejects.toThrow('This customer has an active lease; move them out first');
    await endLease(ctx(), lease.state.leaseId, '2025-05-31');
    expect((await archiveCustomer(ctx(), customerId)).state.status).toBe('archived');
  });

  it('counts a move-in under way (the unit taken, the lease not started yet) as a lease, and passes it over once the unit is let go', async () => {
    const { customerId, unitId } = await renterAndUnit();
    const leaseId = randomUUID();
    await occupyUnit(ctx(), unitId, { leaseId, customerId });
    await listCustomerLease(ctx(), customerId, leaseId, unitId);
    await expect(archiveCustomer(ctx(), customerId)).rejects.toThrow(ConflictError);
    await returnUnit(ctx(), unitId, leaseId, null, 'Lease never started');
    expect((await archiveCustomer(ctx(), customerId)).state.status).toBe('archived');
  });

  it('refuses a move-in once the customer is archived, and lets the unit go', async () => {
    const { customerId, unitId } = await renterAndUnit();
    await archiveCustomer(ctx(), customerId);
    await expect(startLease(ctx(), { customerId, unitId, startDate: '2025-06-01', monthlyRate: '90.00', depositAmount: null })).rejects.toThrow(NotFoundError);
    const { state: unit } = await loadAggregate(testStore.store, `unit-${unitId}`, unitAggregate);
    expect(unit.status === 'current' && unit.fields.status).toBe('available');
  });
});
