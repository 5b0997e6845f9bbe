import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { PaymentRecordedResponse } from '@storage/contracts/payments';
import { PortalAccount, PortalUnit } from '@storage/contracts/portal';
import { type CommandContext, envelope } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// What the payment result page is told when the renter's portal session reports their card
// payment (the amount, the invoices it paid, the balance after it, their gate access), and the
// receipt they download: both only ever about the session's own renter.

const DAY = 86_400_000;
const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const tag = () => randomUUID().slice(0, 8);
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: `12/${nextYear}`, cvc: '123' };

type Renter = { id: string; email: string; cookie: string };

describe('the payment result: what a reported payment did, and its receipt', () => {
  let platform: TestPlatform;
  let staff: string;
  const facilityId = randomUUID();

  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, cookie?: string) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: cookie ? { cookie } : {} });
  const settled = async () => expect(await platform.reactionsCaughtUp(30_000)).toBe(true);

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    staff = await platform.signIn('owner');
    const ctx: CommandContext = { store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() };
    await addFacility(ctx, { name: `Result ${tag()}`, address: '1 Result Rd', phone: null, managerName: null }, facilityId);
    await platform.readModelCaughtUp(30_000);
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function renter(): Promise<Renter> {
    const t = tag();
    const phone = `(555) 020-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const created = await inject('POST', '/api/customers', { firstName: 'Rita', lastName: `Result${t}`, email: `rita-${t}@example.com`, phone }, staff);
    expect(created.statusCode, created.body).toBe(201);
    await settled();
    const verified = await inject('POST', '/api/customer/verify', { email: created.json().email, phoneLast4: phone.slice(-4) });
    expect(verified.statusCode, verified.body).toBe(200);
    return { id: created.json().id, email: created.json().email, cookie: sessionCookie(verified.headers['set-cookie']) };
  }

  async function invoice(customerId: string, amount: string, dueInDays: number) {
    const body = { invoiceNumber: `INV-${tag()}`, customerId, amount, dueDate: isoDaysFromNow(dueInDays), status: 'sent', description: 'Monthly rent' };
    const created = await inject('POST', '/api/invoices', body, staff);
    expect(created.statusCode, created.body).toBe(201);
    await settled();
    return { id: created.json().id as string, invoiceNumber: body.invoiceNumber };
  }

  async function moveIn(rita: Renter) {
    const unit = await inject('POST', '/api/units', { unitNumber: `R-${tag()}`, building: 'A', monthlyRate: '100.00', facilityId }, staff);
    expect(unit.statusCode, unit.body).toBe(201);
    const lock = await inject('POST', '/api/locks', { lockId: `RK-${tag()}`, unitId: unit.json().id }, staff);
    expect(lock.statusCode, lock.body).toBe(201);
    const lease = { customerId: rita.id, unitId: unit.json().id, monthlyRate: '100.00', depositAmount: null, startDate: isoDaysFromNow(-60) };
    const started = await inject('POST', '/api/leases', lease, staff);
    expect(started.statusCode, started.body).toBe(201);
    await settled();
  }

  async function lockOut(rita: Renter, invoiceId: string) {
    const stream = streams.delinquency(rita.id);
    const ctx: CommandContext = { store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() };
    const event: DomainEvent = {
      type: 'delinquency_step_taken',
      data: { customerId: rita.id, kind: 'lockout', day: 15, invoiceId, date: isoDaysFromNow(-1), pastDue: '100.00' },
    };
    const existing = await platform.api.store.readStream(stream);
    await platform.api.store.append(stream, [envelope(ctx, event)], { expectedRevision: existing.at(-1)?.revision ?? 'no_stream' });
    await settled();
    expect(await gateOpens(rita)).toEqual([false]);
  }

  const gateOpens = async (rita: Renter) =>
    z
      .array(PortalUnit)
      .parse((await inject('GET', '/api/customer/units', undefined, rita.cookie)).json())
      .map((u) => u.gateCode?.active);
  const account = async (rita: Renter) => PortalAccount.parse((await inject('GET', '/api/customer/account', undefined, rita.cookie)).json());

  /** Pays with the test provider's good card: the invoice's open balance, or `amount` toward the whole balance. */
  async function pay(rita: Renter, what: { invoiceId: string } | { amount: string }): Promise<string> {
    const started =
      'invoiceId' in what
        ? await inject('POST', '/api/create-payment-intent', { invoiceId: what.invoiceId }, rita.cookie)
        : await inject('POST', '/api/customer/account-payment-intent', { amount: what.amount }, rita.cookie);
    expect(started.statusCode, started.body).toBe(200);
    const intentId = started.json().paymentIntentId as string;
    const confirmed = await inject('POST', `/api/test-provider/payment-intents/${intentId}/confirm`, goodCard, rita.cookie);
    expect(confirmed.json().status).toBe('succeeded');
    return intentId;
  }

  async function report(paymentIntentId: string, cookie?: string) {
    const response = await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId }, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return PaymentRecordedResponse.strict().parse(response.json());
  }

  it("tells the payer's session the amount, the invoice it paid and the balance left", async () => {
    const rita = await renter();
    const rent = await invoice(rita.id, '120.00', 5);
    await invoice(rita.id, '45.50', 35);
    const intentId = await pay(rita, { invoiceId: rent.id });
    const answer = await report(intentId, rita.cookie);
    expect(answer).toMatchObject({ recorded: true, refunded: false, invoiceId: rent.id });
    expect(answer.summary).toEqual({
      amount: '120.00',
      paidDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      applied: [{ invoiceId: rent.id, invoiceNumber: rent.invoiceNumber, amount: '120.00' }],
      credited: '0.00',
      balance: '45.50',
      credit: '0.00',
      access: null,
    });
    expect(answer.summary!.balance).toBe((await account(rita)).openBalance);
    // A report again (a reload of the page) records nothing more and tells the same.
    const again = await report(intentId, rita.cookie);
    expect(again).toMatchObject({ recorded: false, refunded: false });
    expect(again.summary).toEqual(answer.summary);
  });

  it('lists each invoice a payment toward the balance paid, oldest first, part of the last one', async () => {
    const rita = await renter();
    const older = await invoice(rita.id, '100.00', -20);
    const newer = await invoice(rita.id, '80.00', 10);
    const intentId = await pay(rita, { amount: '130.00' });
    const { summary } = await report(intentId, rita.cookie);
    expect(summary).toMatchObject({
      amount: '130.00',
      applied: [
        { invoiceId: older.id, invoiceNumber: older.invoiceNumber, amount: '100.00' },
        { invoiceId: newer.id, invoiceNumber: newer.invoiceNumber, amount: '30.00' },
      ],
      credited: '0.00',
      balance: '50.00',
      access: null,
    });
  });

  it('tells no one else what the payment did: not a signed-out report, not another renter’s session', async () => {
    const rita = await renter();
    const other = await renter();
    const rent = await invoice(rita.id, '60.00', 5);
    const intentId = await pay(rita, { invoiceId: rent.id });
    expect(await report(intentId)).toMatchObject({ recorded: true, summary: null });
    expect(await report(intentId, other.cookie)).toMatchObject({ recorded: false, summary: null });
    expect((await report(intentId, rita.cookie)).summary).toMatchObject({ amount: '60.00', balance: '0.00' });
  });

  it('says a locked-out renter who still owes past due stays suspended', async () => {
    const rita = await renter();
    await moveIn(rita);
    const first = await invoice(rita.id, '100.00', -20);
    await invoice(rita.id, '100.00', -10);
    await lockOut(rita, first.id);
    const { summary } = await report(await pay(rita, { invoiceId: first.id }), rita.cookie);
    expect(summary).toMatchObject({ amount: '100.00', access: 'suspended' });
    await settled();
    expect(await gateOpens(rita)).toEqual([false]);
  });

  it('says access is being restored once the payment clears the lockout, and restored once the gate code opens again', async () => {
    const rita = await renter();
    await moveIn(rita);
    const overdue = await invoice(rita.id, '100.00', -20);
    await lockOut(rita, overdue.id);
    const { openBalance } = await account(rita);
    const intentId = await pay(rita, { amount: openBalance });
    const first = await report(intentId, rita.cookie);
    expect(first.summary).toMatchObject({ amount: openBalance, balance: '0.00' });
    // The restore is a reaction to the payment: right after it, it may or may not have run.
    expect(['restoring', 'restored']).toContain(first.summary!.access);
    await settled();
    expect(await gateOpens(rita)).toEqual([true]);
    expect((await report(intentId, rita.cookie)).summary!.access).toBe('restored');
  });

  describe('GET /api/customer/payments/:paymentId/receipt.pdf', () => {
    it("gives the renter the PDF receipt of their own payment, and no one else's", async () => {
      const rita = await renter();
      const other = await renter();
      const rent = await invoice(rita.id, '75.25', 5);
      const intentId = await pay(rita, { invoiceId: rent.id });
      await report(intentId, rita.cookie);
      const url = `/api/customer/payments/${intentId}/receipt.pdf`;

      const own = await inject('GET', url, undefined, rita.cookie);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.headers['content-type']).toBe('application/pdf');
      expect(own.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="receipt-\\d{4}-\\d{2}-\\d{2}-${intentId}\\.pdf"$`));
      expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

      const foreign = await inject('GET', url, undefined, other.cookie);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ message: 'Payment not found' });
      expect((await inject('GET', '/api/customer/payments/pi_test_nosuchpayment/receipt.pdf', undefined, rita.cookie)).statusCode).toBe(404);
      expect((await inject('GET', url)).statusCode).toBe(401);
    });

    it('refuses an id that is not a payment id, naming the parameter', async () => {
      const rita = await renter();
      const response = await inject('GET', '/api/customer/payments/ch_123/receipt.pdf', undefined, rita.cookie);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'paymentId', message: expect.stringContaining('paymentId') });
    });
  });
});
