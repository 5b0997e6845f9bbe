import { InvoiceStatus, PaymentMethod, unitFormSizes } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { toDomainEvent } from '@storage/domain/commands/handle';
import { type CustomerState, customerAggregate } from '@storage/domain/customers/customer';
import { type FacilityState, facilityAggregate } from '@storage/domain/facilities/facility';
import { type InvoiceState, invoiceAggregate } from '@storage/domain/invoices/invoice';
import { type LeaseState, leaseAggregate } from '@storage/domain/leases/lease';
import { type LockState, lockAggregate } from '@storage/domain/locks/lock';
import { type UnitState, unitAggregate } from '@storage/domain/units/unit';
import type { RecordedEvent } from '@storage/eventstore/port';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { DEMO_BUSINESS, seedDemoData } from '@storage/seed/demo';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NOW = new Date('2025-06-15T14:30:00.000Z');
const DAY = 86_400_000;

async function readEverything(store: PostgresEventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const batch = await store.readAll({ after: all.at(-1)?.position ?? null, limit: 1000 });
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** The current state of every stream of one kind, folded from the history. */
function statesOf<S>(events: RecordedEvent[], prefix: string, aggregate: { initial: S; evolve(state: S, event: DomainEvent): S }): S[] {
  const states = new Map<string, S>();
  for (const event of events) {
    if (!event.streamName.startsWith(`${prefix}-`)) continue;
    states.set(event.streamName, aggregate.evolve(states.get(event.streamName) ?? aggregate.initial, toDomainEvent(event)));
  }
  return [...states.values()];
}

function current<S extends { status: string }>(states: S[]): Exclude<S, { status: 'none' }>[] {
  return states.filter((s): s is Exclude<S, { status: 'none' }> => s.status !== 'none');
}

describe('the demo seed', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let events: RecordedEvent[];
  let facilities: Exclude<FacilityState, { status: 'none' }>[];
  let units: Exclude<UnitState, { status: 'none' }>[];
  let customers: Exclude<CustomerState, { status: 'none' }>[];
  let leases: Exclude<LeaseState, { status: 'none' }>[];
  let invoices: Exclude<InvoiceState, { status: 'none' }>[];
  let locks: Exclude<LockState, { status: 'none' }>[];

  const ofType = <T extends DomainEvent['type']>(type: T) =>
    events.filter((e) => e.type === type).map((e) => toDomainEvent(e) as Extract<DomainEvent, { type: T }>);

  beforeAll(async () => {
    database = await createTestDatabase('seed');
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    const started = performance.now();
    await seedDemoData(store, { now: NOW });
    const seconds = (performance.now() - started) / 1000;
    events = await readEverything(store);
    console.log(`demo seed: ${events.length} events in ${seconds.toFixed(1)} s`);
    facilities = current(statesOf(events, 'facility', facilityAggregate));
    units = current(statesOf(events, 'unit', unitAggregate));
    customers = current(statesOf(events, 'customer', customerAggregate));
    leases = current(statesOf(events, 'lease', leaseAggregate));
    invoices = current(statesOf(events, 'invoice', invoiceAggregate));
    locks = current(statesOf(events, 'lock', lockAggregate));
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('spreads the history over the last six months, none of it in the future', () => {
    const times = events.map((e) => Date.parse(e.metadata.occurredAt));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - 186 * DAY);
    expect(Math.min(...times)).toBeLessThan(NOW.getTime() - 180 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
  });

  it('fills in the business profile, so renters are told whom to contact', () => {
    const profiles = ofType('business_profile_updated');
    expect(profiles).toHaveLength(1);
    expect(profiles[0]!.data).toEqual({ scope: 'business', ...DEMO_BUSINESS });
  });

  it('adds at least three complete facilities', () => {
    expect(facilities.length).toBeGreaterThanOrEqual(3);
    for (const { fields } of facilities) {
      expect(fields).toEqual({
        name: expect.any(String),
        address: expect.any(String),
        phone: expect.any(String),
        managerName: expect.any(String),
        timeZone: expect.any(String),
      });
    }
  });

  it('adds 60+ units in several buildings a facility, in every size the unit form offers, some under maintenance', () => {
    expect(units.length).toBeGreaterThanOrEqual(60);
    expect(new Set(units.map((u) => u.fields.size))).toEqual(new Set(unitFormSizes.map((s) => s.value)));
    for (const { facilityId } of facilities) {
      const buildings = new Set(units.filter((u) => u.fields.facilityId === facilityId).map((u) => u.fields.building));
      expect(buildings.size).toBeGreaterThanOrEqual(2);
    }
    expect(units.filter((u) => u.fields.status === 'maintenance').length).toBeGreaterThan(0);
  });

  it('adds 40+ customers with unique example emails, contact details and a facility', () => {
    expect(customers.length).toBeGreaterThanOrEqual(40);
    const emails = customers.map((c) => c.fields.email);
    expect(new Set(emails).size).toBe(emails.length);
    for (const { fields } of customers) {
      expect(fields.email).toMatch(/^[a-z.]+@example\.(com|net|org)$/);
      expect([fields.phone, fields.address, fields.emergencyContact, fields.emergencyPhone, fields.facilityId]).not.toContain(null);
    }
  });

  it('leases a unit to about 70% of customers, and some have moved out', () => {
    const active = leases.filter((l) => l.status === 'active');
    const tenants = new Set(active.map((l) => l.terms.customerId));
    expect(tenants.size / customers.length).toBeGreaterThan(0.6);
    expect(tenants.size / customers.length).toBeLessThan(0.8);
    expect(leases.filter((l) => l.status === 'ended').length).toBeGreaterThan(0);
  });

  it('occupies exactly the units under an active lease', () => {
    const leased = leases.filter((l) => l.status === 'active').map((l) => l.terms.unitId);
    const occupied = units.filter((u) => u.fields.status === 'occupied').map((u) => u.unitId);
    expect(new Set(leased).size).toBe(leased.length);
    expect(new Set(occupied)).toEqual(new Set(leased));
  });

  it('has invoices in every status, most of them paid, with every payment method', () => {
    // Written-off invoices and payments at the desk by card or from account credit are not in the
    // demo's hand-written history (they come with the desk and the billing engine).
    const statuses = invoices.map((i) => i.fields.status);
    expect(new Set(statuses)).toEqual(new Set(InvoiceStatus.options.filter((s) => s !== 'written_off')));
    expect(statuses.filter((s) => s === 'paid').length).toBeGreaterThan(invoices.length / 2);
    const methods = PaymentMethod.options.filter((m) => m !== 'card_present' && m !== 'account_credit');
    expect(new Set(ofType('payment_received').map((e) => e.data.method))).toEqual(new Set(methods));
  });

  it('makes the customer of every overdue invoice overdue', () => {
    const overdueCustomers = new Set(invoices.filter((i) => i.fields.status === 'overdue').map((i) => i.fields.customerId));
    for (const customerId of overdueCustomers) {
      expect(customers.find((c) => c.customerId === customerId)?.fields.status).toBe('overdue');
    }
  });

  it('puts locks on most occupied units, with varied batteries and firmware, some running low', () => {
    const occupied = units.filter((u) => u.fields.status === 'occupied').map((u) => u.unitId);
    const locked = new Set(locks.map((l) => l.fields.unitId));
    expect(occupied.filter((unitId) => locked.has(unitId)).length).toBeGreaterThan(occupied.length * 0.75);
    expect(new Set(locks.map((l) => l.fields.batteryLevel)).size).toBeGreaterThan(10);
    expect(new Set(locks.map((l) => l.fields.firmwareVersion)).size).toBeGreaterThan(1);
    expect(ofType('lock_battery_low').length).toBeGreaterThan(0);
    expect(locks.filter((l) => l.fields.status === 'low_battery').every((l) => l.fields.batteryLevel < 20)).toBe(true);
    expect(locks.some((l) => l.fields.status === 'low_battery')).toBe(true);
    expect(ofType('lock_heartbeat_received').length).toBeGreaterThan(locks.length);
    expect(ofType('access_granted').length).toBeGreaterThan(0);
  });

  it('writes the same history again for the same seed and now', async () => {
    const again = await createTestDatabase('seed');
    const againStore = await createPostgresEventStore({ connectionString: again.url });
    try {
      await againStore.migrate();
      await seedDemoData(againStore, { now: NOW });
      const essence = (e: RecordedEvent) => [e.streamName, e.type, e.data, e.metadata.occurredAt, e.metadata.correlationId, e.metadata.actor];
      expect((await readEverything(againStore)).map(essence)).toEqual(events.map(essence));
    } finally {
      await againStore.close();
      await again.drop();
    }
  }, 180_000);
});
