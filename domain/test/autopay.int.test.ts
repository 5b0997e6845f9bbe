import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { addDays } from '@storage/domain/billing/calendar';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { savePaymentMethod, setAutopay } from '@storage/domain/payments/profile';
import { updatePaymentSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { comparePositions, type Position } from '@storage/eventstore/port';
import { createTestProvider, type TestProviderFaults } from '@storage/platform/payments/test-provider';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The autopay process on a real database with the built-in test provider: a renter enrolled is
// charged off-session on the invoice's due date (the facility's day) once, a declined card is
// retried on days 1, 3 and 5, a card that needs the renter is not retried, nothing is charged
// with Automatic Charging off, without enrolment or once the invoice is paid, and a run that
// stopped after recording its attempt (before or after the provider charged) is finished once.

const GOOD = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';
const NEEDS_RENTER = '4000 0025 0000 3155';
const DUE = '2026-06-01';

describe('autopay', () => {
  let platform: TestPlatform;
  const ctx = (now = new Date('2026-05-20T12:00:00Z')): CommandContext => ({
    store: platform.api.store,
    actor: { type: 'system' },
    correlationId: randomUUID(),
    now,
  });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A facility of its own (so each test's runs touch only its renter), a renter with a saved card, and an invoice due on DUE. */
  async function renterWithInvoice(cardNumber: string, { autopay = true, amount = '120.00' } = {}) {
    const tag = randomUUID().slice(0, 8);
    const facility = await addFacility(ctx(), { name: `Autopay ${tag}`, address: '1 Way', phone: null, managerName: null, timeZone: 'America/Chicago' });
    if (facility.state.status !== 'current') throw new Error('no facility');
    const facilityId = facility.state.facilityId;
    const customer = await addCustomer(ctx(), {
      firstName: 'Ada',
      lastName: `Autopay${tag}`,
      email: `ada-${tag}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId,
    });
    if (customer.state.status !== 'current') throw new Error('no customer');
    const customerId = customer.state.customerId;
    const provider = createTestProvider(platform.api.pool);
    const card = await provider.saveCard({ customerId, email: 'ada@example.com' }, { cardNumber, expiry: '12/30', cvc: '123' }, new Date());
    await savePaymentMethod(ctx(), customerId, 'test', card, autopay);
    const made = await generateInvoice(ctx(), {
      invoiceNumber: `INV-A-${tag}`,
      customerId,
      leaseId: null,
      amount,
      dueDate: DUE,
      status: 'draft',
      description: 'Rent',
    });
    if (made.state.status !== 'current') throw new Error('no invoice');
    const invoiceId = made.state.invoiceId;
    await sendInvoice(ctx(), invoiceId);
    expect(await platform.readModelCaughtUp()).toBe(true);
    return { facilityId, customerId, invoiceId };
  }

  /** The billing day of the facility on `date` (autopay runs in it, on each day it missed too), then the read model caught up: what its days charged. */
  async function billingDay(facilityId: string, date: string, faults: TestProviderFaults = {}) {
    const provider = createTestProvider(platform.api.pool, faults);
    const day = await runBillingDay({ store: platform.api.store, pool: platform.api.pool, provider }, new Date(`${date}T18:00:00Z`), { date, facilityId });
    expect(await platform.readModelCaughtUp()).toBe(true);
    const charged = (key: 'attempted' | 'succeeded' | 'failed') => day.runs.reduce((n, run) => n + run.autopay[key], 0);
    return {
      attempted: charged('attempted'),
      succeeded: charged('succeeded'),
      failed: charged('failed'),
      errors: day.runs.flatMap((run) => run.autopay.errors),
    };
  }

  const autopayEvents = async (invoiceId: string) =>
    (await platform.api.store.readStream(streams.autopayCharges(invoiceId))).map((e) => ({ type: e.type, ...(e.data as Record<string, unknown>) }));
  const payments = async (invoiceId: string) => (await platform.api.store.readStream(streams.invoice(invoiceId))).filter((e) => e.type === 'payment_received');
  const charges = (invoiceId: string) =>
    platform.api.pool.any(sql.type(z.object({ idempotency_key: z.string(), status: z.string(), amount: z.string() }))`
      SELECT idempotency_key, status, amount::text FROM test_payment_intents WHERE invoice_id = ${invoiceId} ORDER BY idempotency_key`);
  const invoiceStatus = (invoiceId: string) =>
    platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM invoices WHERE id = ${invoiceId}`);

  it('charges an enrolled renter once on the due date, for the open balance, and records the payment', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(GOOD);
    expect(await billingDay(facilityId, '2026-05-31')).toMatchObject({ attempted: 0 });
    expect(await charges(invoiceId)).toEqual([]);

    expect(await billingDay(facilityId, DUE)).toMatchObject({ attempted: 1, succeeded: 1, failed: 0, errors: [] });
    expect(await autopayEvents(invoiceId)).toMatchObject([
      { type: 'autopay_charge_attempted', attempt: 1, amount: '120.00', date: DUE },
      { type: 'autopay_charge_succeeded', attempt: 1, amount: '120.00' },
    ]);
    const [payment] = await payments(invoiceId);
    const intent = (await charges(invoiceId))[0]!;
    expect(intent).toMatchObject({ idempotency_key: `autopay-${invoiceId}-1`, status: 'succeeded', amount: '120.00' });
    expect(payment!.data).toMatchObject({ amount: '120.00', method: 'card' });
    expect(await invoiceStatus(invoiceId)).toBe('paid');

    // The same day again, and the next: nothing more.
    expect(await billingDay(facilityId, DUE)).toMatchObject({ attempted: 0 });
    expect(await billingDay(facilityId, '2026-06-02')).toMatchObject({ attempted: 0 });
    expect(await charges(invoiceId)).toHaveLength(1);
    expect(await payments(invoiceId)).toHaveLength(1);
    expect(await autopayEvents(invoiceId)).toHaveLength(2);
  });

  it('charges once when two runs of the due date race (two projectors, or the hourly job and ops billing:run)', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(GOOD);
    const provider = createTestProvider(platform.api.pool);
    const run = () => runBillingDay({ store: platform.api.store, pool: platform.api.pool, provider }, new Date(`${DUE}T18:00:00Z`), { date: DUE, facilityId });
    const days = await Promise.all([run(), run(), run()]);
    expect(days.map((d) => d.runs[0]!.autopay.errors)).toEqual([[], [], []]);
    expect(days.reduce((sum, d) => sum + d.runs[0]!.autopay.attempted, 0)).toBe(1);
    expect(await platform.readModelCaughtUp()).toBe(true);
    expect(await charges(invoiceId)).toHaveLength(1);
    expect(await payments(invoiceId)).toHaveLength(1);
    expect((await autopayEvents(invoiceId)).map((e) => e.type)).toEqual(['autopay_charge_attempted', 'autopay_charge_succeeded']);
  });

  it('retries a declined card on days 1, 3 and 5 after the due date, then gives up (nextAttemptOn null)', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(DECLINED);
    const expected = [
      [DUE, 1, '2026-06-02'],
      ['2026-06-02', 2, '2026-06-04'],
      ['2026-06-04', 3, '2026-06-06'],
      ['2026-06-06', 4, null],
    ] as const;
    for (const [date, attempt, next] of expected) {
      expect(await billingDay(facilityId, date), date).toMatchObject({ attempted: 1, failed: 1 });
      // The days between attempts do nothing.
      expect(await billingDay(facilityId, date === '2026-06-06' ? '2026-06-07' : date), date).toMatchObject({ attempted: 0 });
      expect((await autopayEvents(invoiceId)).at(-1)).toMatchObject({
        type: 'autopay_charge_failed',
        attempt,
        reason: 'Your card was declined.',
        requiresAction: false,
        nextAttemptOn: next,
      });
    }
    expect(await billingDay(facilityId, '2026-06-03')).toMatchObject({ attempted: 0 });
    expect(await billingDay(facilityId, '2026-06-10')).toMatchObject({ attempted: 0 });
    expect((await charges(invoiceId)).map((c) => c.idempotency_key)).toEqual([1, 2, 3, 4].map((n) => `autopay-${invoiceId}-${n}`));
    expect(await autopayEvents(invoiceId)).toHaveLength(8);
    expect(await payments(invoiceId)).toEqual([]);
    expect(await invoiceStatus(invoiceId)).toBe('overdue');
  });

  it('does not retry a card that needs the renter (3-D Secure): they pay in the portal', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(NEEDS_RENTER);
    expect(await billingDay(facilityId, DUE)).toMatchObject({ attempted: 1, failed: 1 });
    expect((await autopayEvents(invoiceId)).at(-1)).toMatchObject({ type: 'autopay_charge_failed', requiresAction: true, nextAttemptOn: null });
    expect(await billingDay(facilityId, '2026-06-02')).toMatchObject({ attempted: 0 });
    expect(await charges(invoiceId)).toHaveLength(1);
  });

  it('charges nobody who is not enrolled, nor a renter who paid before the due date', async () => {
    const notEnrolled = await renterWithInvoice(GOOD, { autopay: false });
    expect(await billingDay(notEnrolled.facilityId, DUE)).toMatchObject({ attempted: 0 });
    expect(await charges(notEnrolled.invoiceId)).toEqual([]);

    const paid = await renterWithInvoice(GOOD);
    await recordPayment(ctx(), paid.invoiceId, { amount: '120.00', method: 'cash', stripePaymentIntentId: null });
    expect(await platform.readModelCaughtUp()).toBe(true);
    expect(await billingDay(paid.facilityId, DUE)).toMatchObject({ attempted: 0 });
    expect(await charges(paid.invoiceId)).toEqual([]);

    // Enrolled later, within the retry window: charged at the next run.
    await setAutopay(ctx(), notEnrolled.customerId, true);
    expect(await platform.readModelCaughtUp()).toBe(true);
    expect(await billingDay(notEnrolled.facilityId, '2026-06-02')).toMatchObject({ attempted: 1, succeeded: 1 });
  });

  it('charges nothing while the business has Automatic Charging off', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(GOOD);
    await updatePaymentSettings(ctx(), { automaticCharging: false, lateFeeAmount: '25.00' });
    try {
      expect(await billingDay(facilityId, DUE)).toMatchObject({ attempted: 0 });
      expect(await charges(invoiceId)).toEqual([]);
    } finally {
      await updatePaymentSettings(ctx(), { automaticCharging: true, lateFeeAmount: '25.00' });
    }
    // On again: the retry window is still open.
    expect(await billingDay(facilityId, '2026-06-02')).toMatchObject({ attempted: 1, succeeded: 1 });
  });

  it('finishes an attempt stopped after the provider charged, once: one charge, one payment', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(GOOD);
    const crash = {
      afterCharge() {
        throw new Error('the process died');
      },
    };
    const stopped = await billingDay(facilityId, DUE, crash);
    expect(stopped).toMatchObject({ attempted: 1, succeeded: 0, failed: 0 });
    expect(stopped.errors).toHaveLength(1);
    expect(await autopayEvents(invoiceId)).toMatchObject([{ type: 'autopay_charge_attempted', attempt: 1 }]);
    expect(await charges(invoiceId)).toHaveLength(1);
    expect(await payments(invoiceId)).toEqual([]);

    // The next run (the next day) asks the provider under the same key: the charge it made.
    expect(await billingDay(facilityId, '2026-06-02')).toMatchObject({ attempted: 0, succeeded: 1 });
    expect(await autopayEvents(invoiceId)).toMatchObject([
      { type: 'autopay_charge_attempted', attempt: 1 },
      { type: 'autopay_charge_succeeded', attempt: 1 },
    ]);
    expect(await charges(invoiceId)).toHaveLength(1);
    expect(await payments(invoiceId)).toHaveLength(1);
    expect(await billingDay(facilityId, '2026-06-03')).toMatchObject({ attempted: 0, succeeded: 0 });
  });

  it('finishes an attempt stopped before the provider answered without charging a renter who paid meanwhile', async () => {
    const { facilityId, invoiceId } = await renterWithInvoice(GOOD);
    const down = {
      beforeCharge() {
        throw new Error('the provider did not answer');
      },
    };
    expect(await billingDay(facilityId, DUE, down)).toMatchObject({ attempted: 1, succeeded: 0 });
    expect(await charges(invoiceId)).toEqual([]);
    // Paid at the desk meanwhile: the attempt is finished (the provider is asked: no charge under
    // its key), and nothing is charged.
    await recordPayment(ctx(), invoiceId, { amount: '120.00', method: 'cash', stripePaymentIntentId: null });
    expect(await platform.readModelCaughtUp()).toBe(true);
    expect(await billingDay(facilityId, '2026-06-02')).toMatchObject({ attempted: 0, failed: 1 });
    expect((await autopayEvents(invoiceId)).at(-1)).toMatchObject({ type: 'autopay_charge_failed', attempt: 1, reason: expect.stringMatching(/^Not charged/) });
    expect(await charges(invoiceId)).toEqual([]);
    expect(await payments(invoiceId)).toHaveLength(1);
    expect(await billingDay(facilityId, '2026-06-04')).toMatchObject({ attempted: 0 });
  });
  it("charges on each due date before that day's late rules when the billing day catches up weeks it missed, then fees and steps on their own days", async () => {
    // Two renters of one facility moved in on May 10 and paid their move-in; the billing day ran on
    // May 20, then not again until June 20. The catch-up runs May 21 to June 20 one day after the
    // other: June's rent is issued on May 27 and charged on June 1 before anything counts it late.
    const tag = randomUUID().slice(0, 8);
    const moveInAt = ctx(new Date('2026-05-10T12:00:00Z'));
    const facility = await addFacility(moveInAt, { name: `Catch-up ${tag}`, address: '1 Way', phone: null, managerName: null, timeZone: 'UTC' });
    if (facility.state.status !== 'current') throw new Error('no facility');
    const facilityId = facility.state.facilityId;
    const provider = createTestProvider(platform.api.pool);
    async function enrolledTenant(name: string, cardNumber: string) {
      const customer = await addCustomer(moveInAt, renterFields(name, `Catchup${tag}`, `${tag}-${name.toLowerCase()}`, { facilityId }));
      const unit = await addUnit(moveInAt, {
        facilityId,
        unitNumber: `C-${name}-${tag}`,
        building: 'C',
        size: '5x5',
        monthlyRate: '100.00',
        status: 'available',
        description: null,
      });
      if (customer.state.status !== 'current' || unit.state.status !== 'current') throw new Error('setup failed');
      const customerId = customer.state.customerId;
      const card = await provider.saveCard(
        { customerId, email: 'c@example.com' },
        { cardNumber, expiry: '12/30', cvc: '123' },
        new Date('2026-05-10T12:00:00Z'),
      );
      await savePaymentMethod(moveInAt, customerId, 'test', card, true);
      const leaseId = randomUUID();
      await startLease(moveInAt, { customerId, unitId: unit.state.unitId, startDate: '2026-05-10', monthlyRate: '100.00', depositAmount: null }, leaseId);
      await recordPayment(moveInAt, leaseInvoiceId(leaseId, '2026-05-10'), { amount: '70.97', method: 'cash', stripePaymentIntentId: null });
      return { customerId, june: leaseInvoiceId(leaseId, '2026-06-01') };
    }
    const payer = await enrolledTenant('Paula', GOOD);
    const declined = await enrolledTenant('Dan', DECLINED);
    expect(await platform.readModelCaughtUp()).toBe(true);
    expect(await billingDay(facilityId, '2026-05-20')).toMatchObject({ attempted: 0 });

    const day = await runBillingDay({ store: platform.api.store, pool: platform.api.pool, provider }, new Date('2026-06-20T18:00:00Z'), {
      date: '2026-06-20',
      facilityId,
    });
    expect(day.runs.map((run) => run.billingDate)).toEqual(Array.from({ length: 31 }, (_, i) => addDays('2026-05-21', i)));
    expect(await platform.readModelCaughtUp()).toBe(true);

    // Paula's card: charged on the due date, so never overdue, no late fee, no step.
    expect(await autopayEvents(payer.june)).toMatchObject([
      { type: 'autopay_charge_attempted', attempt: 1, amount: '100.00', date: '2026-06-01' },
      { type: 'autopay_charge_succeeded', attempt: 1 },
    ]);
    const paulasJune = await platform.api.store.readStream(streams.invoice(payer.june));
    expect(paulasJune.map((e) => e.type)).toEqual(['invoice_generated', 'invoice_sent', 'payment_received']);
    expect(paulasJune[1]!.data).toMatchObject({ sentOn: '2026-05-27' });
    expect(await platform.api.store.readStream(streams.delinquency(payer.customerId))).toEqual([]);

    // Dan's card is declined: tried on the due date and on days 1, 3 and 5, each time before that
    // day's late rules; overdue on June 2 after that day's try; the late notice on June 6 after the
    // last try; the late fee of an invoice issued in this same catch-up on June 11; the lockout on June 16.
    const attempts = (await platform.api.store.readStream(streams.autopayCharges(declined.june))).filter((e) => e.type === 'autopay_charge_failed');
    expect(attempts.map((e) => e.data)).toMatchObject([
      { attempt: 1, nextAttemptOn: '2026-06-02' },
      { attempt: 2, nextAttemptOn: '2026-06-04' },
      { attempt: 3, nextAttemptOn: '2026-06-06' },
      { attempt: 4, nextAttemptOn: null },
    ]);
    const dansJune = await platform.api.store.readStream(streams.invoice(declined.june));
    const overdue = dansJune.find((e) => e.type === 'invoice_overdue')!;
    const lateFee = dansJune.find((e) => e.type === 'invoice_line_added')!;
    expect(lateFee.data).toMatchObject({ line: { kind: 'late_fee', amount: '25.00' } });
    const steps = await platform.api.store.readStream(streams.delinquency(declined.customerId));
    expect(steps.map((e) => [(e.data as { kind: string }).kind, (e.data as { date: string }).date])).toEqual([
      ['late_notice', '2026-06-06'],
      ['lockout', '2026-06-16'],
    ]);
    const earlier = (a: { position: Position }, b: { position: Position }) => comparePositions(a.position, b.position) < 0;
    expect(earlier(attempts[1]!, overdue) && earlier(overdue, attempts[2]!)).toBe(true);
    expect(earlier(attempts[3]!, steps[0]!) && earlier(steps[0]!, lateFee) && earlier(lateFee, steps[1]!)).toBe(true);
  });
});
