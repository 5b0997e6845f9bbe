import { randomUUID } from 'node:crypto';
import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { leaseInvoiceId, leaseInvoiceNumber } from '@storage/domain/billing/lease-billing';
import { runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { loadAggregate } from '@storage/domain/commands/handle';
import { claimUniqueKey } from '@storage/domain/commands/unique-keys';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { endLease, startLease } from '@storage/domain/leases/commands';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { comparePositions, type Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The billing engine on a real database: the move-in invoice, each period's rent issued once
// (retried, raced, caught up day by day after days down), late fees once after the grace days, in
// the facility's own time zone. Each test moves a renter in of its own.

const InvoiceRow = z.object({
  id: z.string(),
  invoice_number: z.string(),
  amount: z.string(),
  due_date: z.string(),
  status: z.string(),
  lines: z.array(
    z.object({ kind: z.string(), description: z.string(), amount: z.string(), periodStart: z.string().nullable(), periodEnd: z.string().nullable() }),
  ),
});

describe('the billing engine', () => {
  let platform: TestPlatform;
  let facilityId: string;
  const ctx = (now: Date): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  let last: Position | null = null;
  /** Keeps the latest position seen (runs side by side may finish in any order). */
  const track = <T extends { position: Position | null }>(result: T) => {
    if (result.position && (!last || comparePositions(result.position, last) > 0)) last = result.position;
    return result;
  };
  const settle = async () => {
    if (last) expect(await platform.api.afterAppend(last, 10_000)).toBe(true);
  };
  const deps = () => ({ store: platform.api.store, pool: platform.api.pool });
  const settings = (overrides: Partial<BillingSettings> = {}): BillingSettings => ({ ...defaultBillingSettings, adminFee: '20.00', ...overrides });

  beforeAll(async () => {
    platform = await startTestPlatform();
    const at = ctx(new Date('2026-01-01T12:00:00Z'));
    const facility = track(
      await addFacility(at, { name: `Engine ${randomUUID().slice(0, 6)}`, address: '1 Way', phone: null, managerName: null, timeZone: 'America/Los_Angeles' }),
    );
    if (facility.state.status !== 'current') throw new Error('no facility');
    facilityId = facility.state.facilityId;
    track(await updateBillingSettings(at, settings()));
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A renter moved into a unit of their own at `now`, starting on `startDate`. */
  async function moveIn(startDate: string, now: Date, deposit: string | null = '120.00') {
    const at = ctx(now);
    const tag = randomUUID().slice(0, 8);
    const unit = track(
      await addUnit(at, { facilityId, unitNumber: `E-${tag}`, building: 'E', size: '10x10', monthlyRate: '120.00', status: 'available', description: null }),
    );
    const customer = track(
      await addCustomer(at, {
        firstName: 'Erin',
        lastName: `Engine${tag}`,
        email: `erin-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId,
      }),
    );
    if (unit.state.status === 'none' || customer.state.status === 'none') throw new Error('setup failed');
    const leaseId = randomUUID();
    track(
      await startLease(
        at,
        { customerId: customer.state.customerId, unitId: unit.state.unitId, startDate, monthlyRate: '120.00', depositAmount: deposit },
        leaseId,
      ),
    );
    await settle();
    return { leaseId, customerId: customer.state.customerId };
  }

  const invoicesOf = async (leaseId: string) =>
    platform.api.pool.any(sql.type(InvoiceRow)`
      SELECT id::text, invoice_number, amount::text, due_date::text, status, lines FROM invoices WHERE lease_id = ${leaseId} ORDER BY due_date`);
  const billedEvents = async (leaseId: string) =>
    (await platform.api.store.readStream(streams.lease(leaseId))).filter((e) => e.type === 'lease_rent_billed').map((e) => e.data.periodStart);
  const billingDay = async (now: Date, date?: string) => {
    const day = track(await runBillingDay(deps(), now, date ? { date } : {}));
    await settle();
    // The run of the day asked for: the last of the facility's days when the run caught up.
    return day.runs.findLast((run) => run.facilityId === facilityId)!;
  };

  it('bills the move-in at once: the prorated month, the deposit and the admin fee, due on the move-in day, and sent', async () => {
    const { leaseId } = await moveIn('2026-02-10', new Date('2026-02-10T18:00:00Z'));
    const [invoice, ...more] = await invoicesOf(leaseId);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ amount: '221.43', due_date: '2026-02-10', status: 'sent' });
    expect(invoice!.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['prorated_rent', '81.43'],
      ['deposit', '120.00'],
      ['admin_fee', '20.00'],
    ]);
    const { state } = await loadAggregate(platform.api.store, streams.lease(leaseId), leaseAggregate);
    expect(state).toMatchObject({ billedThrough: '2026-02-28' });
  });

  it("issues next month's rent on its issue day in the facility's time zone, once however often the day runs", async () => {
    const { leaseId } = await moveIn('2026-02-10', new Date('2026-02-10T18:00:00Z'));
    // 07:00 UTC on Feb 24 is still Feb 23 in Los Angeles: March's rent (issued 5 days before Mar 1) waits.
    expect((await billingDay(new Date('2026-02-24T07:00:00Z'))).invoicesIssued).toBe(0);
    expect(await invoicesOf(leaseId)).toHaveLength(1);
    const run = await billingDay(new Date('2026-02-24T08:30:00Z'));
    expect(run.billingDate).toBe('2026-02-24');
    expect(run.invoicesIssued).toBeGreaterThanOrEqual(1);
    expect((await billingDay(new Date('2026-02-24T20:00:00Z'))).invoicesIssued).toBe(0);
    const invoices = await invoicesOf(leaseId);
    // The move-in invoice, unpaid past its grace days, took its late fee on the way.
    expect(invoices.map((i) => [i.due_date, i.amount, i.status])).toEqual([
      ['2026-02-10', '246.43', 'overdue'],
      ['2026-03-01', '120.00', 'sent'],
    ]);
    expect(invoices[1]!.lines).toEqual([
      { kind: 'rent', description: 'Rent Mar 1 – Mar 31, 2026', amount: '120.00', periodStart: '2026-03-01', periodEnd: '2026-03-31' },
    ]);
    expect(invoices[1]!.invoice_number).toMatch(/^INV-202603-[0-9A-F]{8}$/);
    expect(await billedEvents(leaseId)).toEqual(['2026-02-10', '2026-03-01']);
  });

  it('issues a period once when three billing days run at the same time', async () => {
    const { leaseId } = await moveIn('2026-01-05', new Date('2026-01-05T18:00:00Z'));
    const days = await Promise.all([0, 1, 2].map(() => runBillingDay(deps(), new Date('2026-01-28T18:00:00Z'))));
    for (const day of days) track(day);
    await settle();
    expect(await billedEvents(leaseId)).toEqual(['2026-01-05', '2026-02-01']);
    const invoices = await invoicesOf(leaseId);
    expect(invoices.map((i) => i.due_date)).toEqual(['2026-01-05', '2026-02-01']);
    const invoiceStreams = await Promise.all(invoices.map((i) => platform.api.store.readStream(streams.invoice(i.id))));
    expect(invoiceStreams.map((events) => events.filter((e) => e.type === 'invoice_generated').length)).toEqual([1, 1]);
  });

  it('catches up every missed day in order after days down, each period issued and charged its late fee on its own day, and bills nothing after the move-out', async () => {
    const { leaseId } = await moveIn('2026-03-01', new Date('2026-03-01T18:00:00Z'), null);
    // Down from late February to late June: the run catches up every day it missed, one after the
    // other, so April, May, June and July (issued June 26) are each issued on their issue day, and
    // the late fee of each one issued in this same run is added on its day, not at a later run.
    const day = track(await runBillingDay(deps(), new Date('2026-06-27T18:00:00Z')));
    await settle();
    const days = day.runs.filter((run) => run.facilityId === facilityId).map((run) => run.billingDate);
    expect(days.at(-1)).toBe('2026-06-27');
    expect(days.length).toBeGreaterThan(90);
    expect((await invoicesOf(leaseId)).map((i) => [i.due_date, i.amount])).toEqual([
      ['2026-03-01', '165.00'], // the move-in's rent and admin fee, and its late fee: none of it was paid
      ['2026-04-01', '145.00'],
      ['2026-05-01', '145.00'],
      ['2026-06-01', '145.00'],
      ['2026-07-01', '120.00'],
    ]);
    expect(await billedEvents(leaseId)).toEqual(['2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01']);
    const sentOn = async (invoiceId: string) =>
      ((await platform.api.store.readStream(streams.invoice(invoiceId))).find((e) => e.type === 'invoice_sent')!.data as { sentOn: string }).sentOn;
    const invoices = await invoicesOf(leaseId);
    expect(await Promise.all(invoices.map((i) => sentOn(i.id)))).toEqual(['2026-03-01', '2026-03-27', '2026-04-26', '2026-05-27', '2026-06-26']);
    // July's fee on its day, July 11; nothing after the move-out on July 15.
    const amounts = async () => (await invoicesOf(leaseId)).map((i) => i.amount);
    await billingDay(new Date('2026-07-10T18:00:00Z'));
    expect(await amounts()).toEqual(['165.00', '145.00', '145.00', '145.00', '120.00']);
    await billingDay(new Date('2026-07-11T18:00:00Z'));
    expect(await amounts()).toEqual(['165.00', '145.00', '145.00', '145.00', '145.00']);
    track(await endLease(ctx(new Date('2026-07-12T18:00:00Z')), leaseId, '2026-07-15'));
    await settle();
    await billingDay(new Date('2026-09-01T18:00:00Z'));
    expect(await billedEvents(leaseId)).toHaveLength(5);
  });

  it('marks an unpaid rent invoice overdue the day after it is due, and adds the late fee once on the day after the grace days', async () => {
    const { leaseId, customerId } = await moveIn('2026-04-01', new Date('2026-04-01T18:00:00Z'));
    await billingDay(new Date('2026-04-26T18:00:00Z'), '2026-04-26');
    const may = () => invoicesOf(leaseId).then((all) => all.find((i) => i.due_date === '2026-05-01')!);
    expect((await may()).status).toBe('sent');
    await billingDay(new Date('2026-05-02T18:00:00Z'), '2026-05-10');
    expect(await may()).toMatchObject({ status: 'overdue', amount: '120.00' });
    const standing = await platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM customers WHERE id = ${customerId}`);
    expect(standing).toBe('overdue');
    const eleventh = await billingDay(new Date('2026-05-11T18:00:00Z'), '2026-05-11');
    expect(eleventh.lateFeesCharged).toBeGreaterThanOrEqual(1);
    expect(await may()).toMatchObject({ status: 'overdue', amount: '145.00' });
    expect((await may()).lines.map((l) => [l.kind, l.amount])).toEqual([
      ['rent', '120.00'],
      ['late_fee', '25.00'],
    ]);
    await billingDay(new Date('2026-05-12T18:00:00Z'), '2026-05-12');
    expect((await may()).amount).toBe('145.00');
  });

  it('bills many leases side by side: two billing days at once issue every period once, and count each invoice once', async () => {
    const moved = [];
    for (let n = 0; n < 24; n++) moved.push(await moveIn('2026-10-01', new Date('2026-10-01T18:00:00Z')));
    const invoiceCount = () => platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM invoices`);
    const before = await invoiceCount();
    const days = await Promise.all([0, 1].map(() => runBillingDay(deps(), new Date('2026-10-27T18:00:00Z'))));
    for (const day of days) track(day);
    await settle();
    for (const { leaseId } of moved) {
      expect(await billedEvents(leaseId)).toEqual(['2026-10-01', '2026-11-01']);
      expect((await invoicesOf(leaseId)).map((i) => i.due_date)).toEqual(['2026-10-01', '2026-11-01']);
    }
    // The two days together issued exactly the invoices that now exist, November's for each lease among them.
    const issued = days.flatMap((day) => day.runs).reduce((n, run) => n + run.invoicesIssued, 0);
    expect(issued).toBe((await invoiceCount()) - before);
    expect(issued).toBeGreaterThanOrEqual(moved.length);
  });

  it("gives an invoice a longer number when its usual one belongs to another lease's invoice, and issues it once", async () => {
    const { leaseId } = await moveIn('2026-11-01', new Date('2026-11-01T18:00:00Z'));
    const december = leaseInvoiceId(leaseId, '2026-12-01');
    const usual = leaseInvoiceNumber('2026-12-01', december);
    // Another invoice of December whose id starts with the same eight digits holds the number.
    expect(await claimUniqueKey(ctx(new Date('2026-11-20T18:00:00Z')), 'invoice-number', usual, streams.invoice(randomUUID()))).toBe(true);
    const run = await billingDay(new Date('2026-11-26T18:00:00Z'));
    expect(run.skipped).toEqual([]);
    const invoice = (await invoicesOf(leaseId)).find((i) => i.due_date === '2026-12-01')!;
    expect(invoice.id).toBe(december);
    expect(invoice.invoice_number).toMatch(/^INV-202612-[0-9A-F]{16}$/);
    expect(invoice.invoice_number.startsWith(usual)).toBe(true);
    await billingDay(new Date('2026-11-27T18:00:00Z'));
    expect(await billedEvents(leaseId)).toEqual(['2026-11-01', '2026-12-01']);
    expect((await platform.api.store.readStream(streams.invoice(december))).filter((e) => e.type === 'invoice_generated')).toHaveLength(1);
  });
});
