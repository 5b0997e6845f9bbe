import { InvoiceStatus, PaymentMethod, unitFormSizes } from '@storage/contracts/enums';
import type { DomainEvent } from '@storage/contracts/events';
import { addDays, todayIn } from '@storage/domain/billing/calendar';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { toDomainEvent } from '@storage/domain/commands/handle';
import { type CustomerState, customerAggregate } from '@storage/domain/customers/customer';
import { type FacilityState, facilityAggregate } from '@storage/domain/facilities/facility';
import { type InvoiceState, invoiceAggregate } from '@storage/domain/invoices/invoice';
import { type LeaseState, leaseAggregate } from '@storage/domain/leases/lease';
import { type LockState, lockAggregate } from '@storage/domain/locks/lock';
import { type MerchandiseState, merchandiseAggregate } from '@storage/domain/merchandise/item';
import { type UnitState, unitAggregate } from '@storage/domain/units/unit';
import type { RecordedEvent } from '@storage/eventstore/port';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { DEMO_BILLING_SETTINGS, DEMO_BUSINESS, DEMO_LEASE_TERMS, seedDemoData } from '@storage/seed/demo';
import { DEMO_MERCHANDISE, DEMO_PLANS, HALF_OFF_SIZES } from '@storage/seed/offers';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const NOW = new Date('2025-06-15T14:30:00.000Z');
const DAY = 86_400_000;

/** A fresh database with the event store and the read model's tables, as the seed is given them. */
async function seedDatabase(): Promise<{ database: TestDatabase; store: PostgresEventStore; pool: DatabasePool }> {
  const database = await createTestDatabase('seed');
  const store = await createPostgresEventStore({ connectionString: database.url });
  await store.migrate();
  await migrateReadModel(database.url);
  const pool = await createDatabasePool(database.url);
  await ensureCheckpoints(pool, readModelProjections);
  return { database, store, pool };
}

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
  let pool: DatabasePool;
  let events: RecordedEvent[];
  let facilities: Exclude<FacilityState, { status: 'none' }>[];
  let units: Exclude<UnitState, { status: 'none' }>[];
  let customers: Exclude<CustomerState, { status: 'none' }>[];
  let leases: Exclude<LeaseState, { status: 'none' }>[];
  let invoices: Exclude<InvoiceState, { status: 'none' }>[];
  let locks: Exclude<LockState, { status: 'none' }>[];
  let items: Exclude<MerchandiseState, { status: 'none' }>[];

  const ofType = <T extends DomainEvent['type']>(type: T) =>
    events.filter((e) => e.type === type).map((e) => toDomainEvent(e) as Extract<DomainEvent, { type: T }>);

  beforeAll(async () => {
    ({ database, store, pool } = await seedDatabase());
    const started = performance.now();
    await seedDemoData({ store, pool, catchUpTo: (position) => catchUpTo(pool, store, readModelProjections, position, 120_000) }, { now: NOW });
    const seconds = (performance.now() - started) / 1000;
    events = await readEverything(store);
    console.log(`demo seed: ${events.length} events in ${seconds.toFixed(1)} s`);
    facilities = current(statesOf(events, 'facility', facilityAggregate));
    units = current(statesOf(events, 'unit', unitAggregate));
    customers = current(statesOf(events, 'customer', customerAggregate));
    leases = current(statesOf(events, 'lease', leaseAggregate));
    invoices = current(statesOf(events, 'invoice', invoiceAggregate));
    locks = current(statesOf(events, 'lock', lockAggregate));
    items = current(statesOf(events, 'merchandise', merchandiseAggregate));
  }, 180_000);

  afterAll(async () => {
    await pool?.end();
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

  it('adds at least three complete facilities, one with gate hours and the others open 24 hours', () => {
    expect(facilities.length).toBeGreaterThanOrEqual(3);
    for (const { fields } of facilities) {
      expect(fields).toEqual({
        name: expect.any(String),
        address: expect.any(String),
        phone: expect.any(String),
        managerName: expect.any(String),
        timeZone: expect.any(String),
        accessHours: fields.accessHours === null ? null : { opensAt: expect.any(String), closesAt: expect.any(String) },
      });
    }
    expect(facilities.map(({ fields }) => fields.accessHours)).toEqual([null, { opensAt: '06:00', closesAt: '22:00' }, null]);
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
    const statuses = invoices.map((i) => i.fields.status);
    expect(new Set(statuses)).toEqual(new Set(InvoiceStatus.options));
    expect(statuses.filter((s) => s === 'paid').length).toBeGreaterThan(invoices.length / 2);
    expect(new Set(ofType('payment_received').map((e) => e.data.method))).toEqual(new Set(PaymentMethod.options));
  });

  it('makes the customer of every overdue invoice overdue, and no one else', () => {
    const overdueCustomers = new Set(invoices.filter((i) => i.fields.status === 'overdue').map((i) => i.fields.customerId));
    expect(overdueCustomers.size).toBeGreaterThan(0);
    for (const customerId of overdueCustomers) {
      expect(customers.find((c) => c.customerId === customerId)?.fields.status).toBe('overdue');
    }
    expect(customers.filter((c) => c.fields.status === 'overdue').every((c) => overdueCustomers.has(c.customerId))).toBe(true);
  });

  const started = () => leases.filter((l): l is Extract<LeaseState, { status: 'active' | 'ended' }> => l.status !== 'abandoned');
  /** A facility's date of an event (the engine's "today" there). */
  const facilityDate = (occurredAt: string, facilityId: string | null) =>
    todayIn(facilities.find((f) => f.facilityId === facilityId)?.fields.timeZone ?? 'UTC', new Date(occurredAt));
  const generatedAt = () =>
    new Map(events.filter((e) => e.type === 'invoice_generated').map((e) => [e.streamName.slice('invoice-'.length), e.metadata.occurredAt]));

  it("bills every lease through the engine: the move-in invoice, then each month's rent issued ahead of the 1st, without gaps", () => {
    const generated = generatedAt();
    const leaseInvoices = invoices.filter((i) => i.fields.leaseId !== null);
    expect(leaseInvoices.length).toBeGreaterThan(started().length * 3);
    for (const lease of started()) {
      const own = leaseInvoices
        .filter((i) => i.fields.leaseId === lease.leaseId)
        .sort((a, b) => (a.fields.lines[0]!.periodStart! < b.fields.lines[0]!.periodStart! ? -1 : 1));
      const [moveIn, ...rent] = own;
      // The move-in invoice: the rest of the first month prorated (whole from the 1st) with its
      // promotion and the plan chosen at the move-in, the deposit if any, the admin fee; due at once.
      expect(moveIn!.fields.dueDate).toBe(lease.terms.startDate);
      const chosenAtMoveIn = lease.protection.some((p) => p.reason === 'chosen_at_move_in');
      expect(moveIn!.fields.lines.map((l) => l.kind)).toEqual([
        lease.terms.startDate.endsWith('-01') ? 'rent' : 'prorated_rent',
        ...(lease.promotion ? ['discount'] : []),
        ...(chosenAtMoveIn ? ['protection'] : []),
        ...(lease.terms.depositAmount ? ['deposit'] : []),
        'admin_fee',
      ]);
      expect(moveIn!.fields.lines.at(-1)!.amount).toBe(DEMO_BILLING_SETTINGS.adminFee);
      let billedThrough = moveIn!.fields.lines[0]!.periodEnd!;
      for (const invoice of own) {
        // The engine's invoice: its identity derived from the lease and the first day it bills.
        const first = invoice.fields.lines[0]!;
        expect(invoice.invoiceId).toBe(leaseInvoiceId(lease.leaseId, first.periodStart!));
        if (invoice === moveIn) continue;
        expect(first.periodStart).toBe(addDays(billedThrough, 1));
        expect(first.periodStart!.endsWith('-01')).toBe(true);
        expect(invoice.fields.dueDate).toBe(first.periodStart);
        expect(first).toMatchObject({ kind: 'rent', amount: lease.terms.monthlyRate });
        billedThrough = first.periodEnd!;
        // Issued five days before it is due in the facility's zone, or at a move-in after that day.
        const issuedOn = facilityDate(generated.get(invoice.invoiceId)!, lease.terms.facilityId);
        expect([addDays(invoice.fields.dueDate, -DEMO_BILLING_SETTINGS.issueDaysBefore), lease.terms.startDate]).toContain(issuedOn);
      }
      expect(lease.billedThrough).toBe(billedThrough);
      // Billed up to this month's end, and next month's once it is issued (June 26 in 2025); a lease that ended, to its end.
      if (lease.status === 'active') expect(billedThrough).toBe('2025-06-30');
      expect(rent.length).toBeGreaterThanOrEqual(lease.status === 'active' && lease.terms.startDate < '2025-05-27' ? 1 : 0);
    }
  });

  it('runs the billing day for every facility on every day, and it marks overdue the day after the due date and charges the late fee once after the grace days', () => {
    const runs = ofType('billing_run_completed');
    for (const facility of facilities) {
      const dates = new Set(runs.filter((r) => r.data.facilityId === facility.facilityId).map((r) => r.data.billingDate));
      const firstMoveIn = started()
        .filter((l) => l.terms.facilityId === facility.facilityId)
        .map((l) => l.terms.startDate)
        .sort()[0]!;
      // Every day once the first lease is in the read model the run reads (within a fortnight of it).
      for (let day = addDays(firstMoveIn, 15); day <= '2025-06-15'; day = addDays(day, 1)) expect(dates).toContain(day);
    }
    const invoiceOf = new Map(invoices.map((i) => [i.invoiceId, i]));
    const facilityOf = (invoiceId: string) => started().find((l) => l.leaseId === invoiceOf.get(invoiceId)!.fields.leaseId)?.terms.facilityId ?? null;
    const overdue = events.filter((e) => e.type === 'invoice_overdue');
    expect(overdue.length).toBeGreaterThan(10);
    for (const event of overdue) {
      const invoiceId = event.streamName.slice('invoice-'.length);
      expect(facilityDate(event.metadata.occurredAt, facilityOf(invoiceId))).toBe(addDays(invoiceOf.get(invoiceId)!.fields.dueDate, 1));
    }
    const lateFees = events.filter((e) => e.type === 'invoice_line_added');
    expect(lateFees.length).toBeGreaterThan(5);
    for (const event of lateFees) {
      const { invoiceId, line } = (toDomainEvent(event) as Extract<DomainEvent, { type: 'invoice_line_added' }>).data;
      expect(line).toMatchObject({ kind: 'late_fee', amount: '25.00' });
      expect(facilityDate(event.metadata.occurredAt, facilityOf(invoiceId))).toBe(addDays(invoiceOf.get(invoiceId)!.fields.dueDate, 10));
      expect(invoiceOf.get(invoiceId)!.fields.lines.filter((l) => l.kind === 'late_fee')).toHaveLength(1);
    }
  });

  it("has renters paying on time, late, in parts, or not at all; card payments are the renters' own, credit is rare", () => {
    const payments = ofType('payment_received');
    const invoiceOf = new Map(invoices.map((i) => [i.invoiceId, i]));
    const paidLate = payments.filter((p) => p.data.paidDate > invoiceOf.get(p.data.invoiceId)!.fields.dueDate);
    expect(paidLate.length).toBeGreaterThan(10);
    expect(paidLate.length).toBeLessThan(payments.length / 2);
    const paymentsPerInvoice = new Map<string, number>();
    for (const { data } of payments)
      if (data.method !== 'account_credit') paymentsPerInvoice.set(data.invoiceId, (paymentsPerInvoice.get(data.invoiceId) ?? 0) + 1);
    expect([...paymentsPerInvoice.values()].filter((n) => n > 1).length).toBeGreaterThan(2);
    const delinquent = new Set(
      invoices.filter((i) => i.fields.status === 'overdue' && i.fields.lines.some((l) => l.kind === 'late_fee')).map((i) => i.fields.customerId),
    );
    expect(delinquent.size).toBeGreaterThanOrEqual(2);
    const credit = payments.filter((p) => p.data.method === 'account_credit');
    expect(credit.length).toBeGreaterThan(0);
    expect(credit.length).toBeLessThan(payments.length / 20);
    const cardPayments = events.filter(
      (e) => e.type === 'payment_received' && (toDomainEvent(e) as Extract<DomainEvent, { type: 'payment_received' }>).data.method === 'card',
    );
    for (const event of cardPayments) {
      const { customerId } = (toDomainEvent(event) as Extract<DomainEvent, { type: 'payment_received' }>).data;
      expect(event.metadata.actor).toEqual({ type: 'customer', id: customerId });
    }
    expect(ofType('invoice_written_off')).toHaveLength(1);
    expect(ofType('desk_payment_received').length).toBeGreaterThan(started().length);
  });

  it("gives the business one lease term of its own, which every facility's agreement follows", () => {
    expect(ofType('lease_terms_updated').map((e) => e.data)).toEqual([{ facilityId: null, terms: DEMO_LEASE_TERMS }]);
  });

  it('offers three protection plans, Basic given a month after the move-in, and most leases carry one; one renter shows their own insurance instead', () => {
    const settings = ofType('protection_settings_updated');
    expect(settings).toHaveLength(1);
    const offered = settings[0]!.data.settings!;
    expect(offered.plans.map(({ name, coverageAmount, monthlyPremium }) => ({ name, coverageAmount, monthlyPremium }))).toEqual(DEMO_PLANS);
    expect(offered.defaultPlanId).toBe(offered.plans.find((p) => p.name === 'Basic')!.planId);
    expect(offered.enrollAfterDays).toBe(30);
    const active = leases.filter((l) => l.status === 'active');
    const covered = active.filter((l) => l.protection.at(-1)?.protection);
    expect(covered.length).toBeGreaterThan(active.length / 2);
    const reasons = new Set(started().flatMap((l) => l.protection.map((p) => p.reason)));
    expect(reasons).toEqual(new Set(['chosen_at_move_in', 'enrolled_by_default']));
    // Every plan is chosen by someone, and every lease a month old either has one or its own insurance.
    expect(new Set(covered.map((l) => l.protection.at(-1)!.protection!.name))).toEqual(new Set(DEMO_PLANS.map((p) => p.name)));
    const insured = active.filter((l) => l.insuranceProof !== null);
    expect(insured).toHaveLength(1);
    expect(insured[0]!.protection).toEqual([]);
    expect(insured[0]!.insuranceProof!.expiresOn > '2025-06-15').toBe(true);
    for (const lease of active.filter((l) => l.terms.startDate < addDays('2025-06-15', -31) && l.insuranceProof === null)) {
      expect(lease.protection.length).toBeGreaterThan(0);
    }
    // The premium is billed as its own line, for the days of the rent it rides on.
    const premiums = invoices.flatMap((i) => i.fields.lines.filter((l) => l.kind === 'protection'));
    expect(premiums.length).toBeGreaterThan(active.length);
    const rentInvoices = invoices.filter((i) => i.fields.lines[0]?.kind === 'rent');
    for (const invoice of rentInvoices) {
      const premium = invoice.fields.lines.find((l) => l.kind === 'protection');
      if (premium) expect(DEMO_PLANS.map((p) => p.monthlyPremium)).toContain(premium.amount);
    }
  });

  it('offers two promotions; one or two recent renters of a large unit took half off two months at the desk', () => {
    const updated = ofType('promotions_updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.promotions.map((p) => [p.name, p.channel, p.terms])).toEqual([
      ['First month free', 'online', { kind: 'percent_off', percent: '100', months: 1 }],
      ['Half off 2 months', 'both', { kind: 'percent_off', percent: '50', months: 2 }],
    ]);
    const promoted = started().filter((l) => l.promotion !== null);
    expect(promoted.length).toBeGreaterThanOrEqual(1);
    expect(promoted.length).toBeLessThanOrEqual(2);
    for (const lease of promoted) {
      expect(lease.promotion!.name).toBe('Half off 2 months');
      expect(lease.terms.startDate > addDays('2025-06-15', -60)).toBe(true);
      expect(HALF_OFF_SIZES).toContain(units.find((u) => u.unitId === lease.terms.unitId)!.fields.size);
      const discounts = invoices.filter((i) => i.fields.leaseId === lease.leaseId).flatMap((i) => i.fields.lines.filter((l) => l.kind === 'discount'));
      expect(discounts.length).toBeGreaterThan(0);
      for (const line of discounts) expect(line.amount.startsWith('-')).toBe(true);
    }
  });

  it('keeps a shelf of merchandise at every facility, sold to a few renters at their move-in and paid there, taxed at Oak Hill', () => {
    for (const facility of facilities) {
      const shelf = items.filter((i) => i.facilityId === facility.facilityId);
      expect(shelf.map(({ name, price, taxable, stock }) => ({ name, price, taxable, stock }))).toEqual(
        DEMO_MERCHANDISE.map(({ name, price, taxable, stockToday }) => ({ name, price, taxable, stock: stockToday })),
      );
    }
    expect(ofType('merchandise_restocked').length).toBe(facilities.length);
    const sales = invoices.filter((i) => i.fields.lines.some((l) => l.kind === 'merchandise'));
    expect(sales.length).toBeGreaterThanOrEqual(facilities.length);
    for (const sale of sales) expect(sale.fields.status).toBe('paid');
    const oakHill = facilities.find((f) => f.fields.name === 'Oak Hill Storage Center')!;
    const taxedAt = new Set(
      sales
        .filter((i) => i.fields.lines.some((l) => l.kind === 'tax'))
        .map((i) => customers.find((c) => c.customerId === i.fields.customerId)!.fields.facilityId),
    );
    expect(taxedAt).toEqual(new Set([oakHill.facilityId]));
    // Only merchandise is taxed: rent, fees and premiums are billed as before.
    expect(invoices.filter((i) => i.fields.leaseId !== null && i.fields.lines.some((l) => l.kind === 'tax'))).toEqual([]);
  });

  it('puts locks on most occupied units, with varied batteries and firmware, some running low', async () => {
    const occupied = units.filter((u) => u.fields.status === 'occupied').map((u) => u.unitId);
    const locked = new Set(locks.map((l) => l.fields.unitId));
    expect(occupied.filter((unitId) => locked.has(unitId)).length).toBeGreaterThan(occupied.length * 0.75);
    // A routine heartbeat goes on the lock's heartbeat stream, not its decisions: the battery as last reported is the read model's.
    const reported = await pool.anyFirst(sql.type(z.object({ battery_level: z.number().nullable() }))`SELECT battery_level FROM locks`);
    expect(new Set(reported).size).toBeGreaterThan(10);
    expect(new Set(locks.map((l) => l.fields.firmwareVersion)).size).toBeGreaterThan(1);
    expect(ofType('lock_battery_low').length).toBeGreaterThan(0);
    expect(locks.filter((l) => l.fields.status === 'low_battery').every((l) => l.fields.batteryLevel < 20)).toBe(true);
    expect(locks.some((l) => l.fields.status === 'low_battery')).toBe(true);
    expect(ofType('lock_heartbeat_received').length).toBeGreaterThan(locks.length);
    expect(ofType('access_granted').length).toBeGreaterThan(0);
  });

  it('writes the same history again for the same seed and now', async () => {
    const { database: again, store: againStore, pool: againPool } = await seedDatabase();
    try {
      await seedDemoData(
        { store: againStore, pool: againPool, catchUpTo: (position) => catchUpTo(againPool, againStore, readModelProjections, position, 120_000) },
        { now: NOW },
      );
      const essence = (e: RecordedEvent) => [e.streamName, e.type, e.data, e.metadata.occurredAt, e.metadata.correlationId, e.metadata.actor];
      expect((await readEverything(againStore)).map(essence)).toEqual(events.map(essence));
    } finally {
      await againPool.end();
      await againStore.close();
      await again.drop();
    }
  }, 180_000);
});
