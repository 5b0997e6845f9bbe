import { randomUUID } from 'node:crypto';
import { derivedId } from '@storage/domain/commands/derived-id';
import { envelope } from '@storage/domain/commands/handle';
import { cancelInvoice, markCustomerOverdue, recordPayment } from '@storage/domain/invoices/commands';
import { reconcilePayments } from '@storage/domain/payments/reconcile';
import { readConfig } from '@storage/platform/config';
import { createPaymentProvider } from '@storage/platform/payments/configured-provider';
import type { PaymentProvider } from '@storage/platform/payments/provider';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { RECONCILE_PAYMENTS_JOB, SCHEDULED_JOBS_QUEUE } from '@storage/projector/jobs/scheduler';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const DAY = 86_400_000;
const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const tag = () => randomUUID().slice(0, 8);
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: `12/${nextYear}`, cvc: '123' };

type Method = 'GET' | 'POST';

/** A staff member who bills, and renters who pay through their portal session. */
function billingFixture(getPlatform: () => TestPlatform) {
  let staff = '';
  const inject = (method: Method, url: string, payload?: unknown, cookie?: string, headers: Record<string, string> = {}) =>
    getPlatform().api.app.inject({ method, url, payload: payload as object, headers: { ...(cookie ? { cookie } : {}), ...headers } });

  async function projected(stream: string) {
    const last = (await getPlatform().api.store.readStream(stream)).at(-1);
    if (last) expect(await getPlatform().api.afterAppend(last.position, 15_000)).toBe(true);
  }

  /** A renter signed in to the portal; `overdue`: one the billing engine has marked overdue (no one is added overdue). */
  async function renter(standing: 'active' | 'overdue' = 'active') {
    if (!staff) staff = await getPlatform().signIn('clerk');
    const t = tag();
    const phone = `(555) 010-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const created = await inject('POST', '/api/customers', { firstName: 'Rita', lastName: `Renter${t}`, email: `rita-${t}@example.com`, phone }, staff);
    expect(created.statusCode, created.body).toBe(201);
    const customer = created.json() as { id: string; email: string };
    if (standing === 'overdue') {
      const ctx = { store: getPlatform().api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
      await markCustomerOverdue(ctx, customer.id, 'An invoice is past due');
    }
    await projected(`customer-${customer.id}`);
    const verified = await inject('POST', '/api/customer/verify', { email: customer.email, phoneLast4: phone.slice(-4) });
    expect(verified.statusCode, verified.body).toBe(200);
    return { ...customer, cookie: sessionCookie(verified.headers['set-cookie']) };
  }

  async function invoice(customerId: string, overrides: Record<string, unknown> = {}, cookie = staff) {
    const body = {
      invoiceNumber: `INV-${Date.now()}-${tag()}`,
      customerId,
      amount: '120.00',
      dueDate: isoDaysFromNow(10),
      status: 'sent',
      description: 'Monthly rent',
      ...overrides,
    };
    const created = await inject('POST', '/api/invoices', body, cookie);
    expect(created.statusCode, created.body).toBe(201);
    await projected(`invoice-${created.json().id}`);
    return created.json() as { id: string; invoiceNumber: string; amount: string };
  }

  async function paymentEvents(invoiceId: string) {
    return (await getPlatform().api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_received');
  }

  return { inject, projected, renter, invoice, paymentEvents, staff: () => staff };
}

describe('payments API with the built-in test provider', () => {
  let platform: TestPlatform;
  const { inject, projected, renter, invoice, paymentEvents, staff } = billingFixture(() => platform);

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function payableIntent(rita: { id: string; email: string; cookie: string }, invoiceId: string) {
    const created = await inject('POST', '/api/create-payment-intent', { amount: '1.00', invoiceId, customerEmail: rita.email }, rita.cookie);
    expect(created.statusCode, created.body).toBe(200);
    return created.json() as { clientSecret: string; paymentIntentId: string; amount: string };
  }

  async function paidIntent(rita: { id: string; email: string; cookie: string }, invoiceId: string) {
    const intent = await payableIntent(rita, invoiceId);
    const confirmed = await inject('POST', `/api/test-provider/payment-intents/${intent.paymentIntentId}/confirm`, goodCard, rita.cookie);
    expect(confirmed.json()).toEqual({ paymentIntentId: intent.paymentIntentId, status: 'succeeded', error: null });
    return intent;
  }

  it('tells the portal the test provider takes payments, and keeps Stripe out of the content security policy', async () => {
    const response = await inject('GET', '/api/payments/config');
    expect(response.json()).toEqual({ provider: 'test', publishableKey: null });
    expect(response.headers['content-security-policy']).not.toContain('stripe.com');
  });

  it('charges the open balance whatever amount the browser sends', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '149.99' });
    const intent = await payableIntent(rita, bill.id);
    expect(intent.amount).toBe('149.99');
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.paymentIntentId}_secret_`));
    const stored = await platform.api.pool.one(sql.type(z.object({ amount: z.string(), invoice_id: z.string(), customer_id: z.string() }))`
      SELECT amount::text, invoice_id::text, customer_id::text FROM test_payment_intents WHERE id = ${intent.paymentIntentId}`);
    expect(stored).toEqual({ amount: '149.99', invoice_id: bill.id, customer_id: rita.id });
  });

  it('charges what is still owed on an invoice paid in part, and records that payment instead of refunding it', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '149.99' });
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    await recordPayment(ctx, bill.id, { amount: '50.00', method: 'cash', stripePaymentIntentId: null });
    const intent = await paidIntent(rita, bill.id);
    expect(intent.amount).toBe('99.99');
    const report = await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId }, rita.cookie);
    expect(report.json()).toMatchObject({ recorded: true, refunded: false });
    const payments = await paymentEvents(bill.id);
    expect(payments.map((p) => p.data.amount)).toEqual(['50.00', '99.99']);
  });

  it("needs the portal session of the invoice's customer", async () => {
    const rita = await renter();
    const other = await renter();
    const bill = await invoice(rita.id);
    const body = { amount: '120.00', invoiceId: bill.id, customerEmail: rita.email };
    expect((await inject('POST', '/api/create-payment-intent', body)).statusCode).toBe(401);
    expect((await inject('POST', '/api/create-payment-intent', body, other.cookie)).statusCode).toBe(403);
    expect((await inject('POST', '/api/create-payment-intent', { ...body, invoiceId: randomUUID() }, rita.cookie)).statusCode).toBe(404);

    const intent = await payableIntent(rita, bill.id);
    const url = `/api/test-provider/payment-intents/${intent.paymentIntentId}/confirm`;
    expect((await inject('POST', url, goodCard)).statusCode).toBe(401);
    expect((await inject('POST', url, goodCard, other.cookie)).statusCode).toBe(403);
    expect(await paymentEvents(bill.id)).toHaveLength(0);
  });

  it('refuses to charge a paid or cancelled invoice (409)', async () => {
    const rita = await renter();
    const manager = await platform.signIn('manager');
    for (const [status, created] of [
      ['paid', { payment: { method: 'cash' } }],
      ['cancelled', { reason: 'Typed in error' }],
    ] as const) {
      const bill = await invoice(rita.id, { status, ...created }, manager);
      const response = await inject('POST', '/api/create-payment-intent', { amount: '120.00', invoiceId: bill.id, customerEmail: rita.email }, rita.cookie);
      expect(response.statusCode, status).toBe(409);
    }
  });

  it("answers the provider's messages for declined and invalid cards, and a declined intent can be paid again", async () => {
    const rita = await renter();
    const bill = await invoice(rita.id);
    const intent = await payableIntent(rita, bill.id);
    const confirm = (card: Record<string, string>) =>
      inject('POST', `/api/test-provider/payment-intents/${intent.paymentIntentId}/confirm`, { ...goodCard, ...card }, rita.cookie);
    const refusals: Array<[Record<string, string>, string]> = [
      [{ cardNumber: '4000 0000 0000 0002' }, 'Your card was declined.'],
      [{ cardNumber: '4111 1111 1111 1111' }, 'Your card number is invalid.'],
      [{ expiry: '13/30' }, "Your card's expiration date is invalid."],
      [{ expiry: '01/20' }, "Your card's expiration date is in the past."],
      [{ cvc: '12' }, "Your card's security code is invalid."],
    ];
    for (const [card, message] of refusals) {
      const response = await confirm(card);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ paymentIntentId: intent.paymentIntentId, status: 'requires_payment_method', error: { message } });
    }
    // The server asks the provider: an intent that has not succeeded records nothing.
    const early = await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId, fallbackEmail: rita.email });
    expect(early.statusCode).toBe(409);
    expect(await paymentEvents(bill.id)).toHaveLength(0);

    expect((await confirm({})).json().status).toBe('succeeded');
    expect((await confirm({})).statusCode).toBe(409);
  });

  it('records a payment once however many times it is reported (10 replays), and the invoice shows paid everywhere', async () => {
    const rita = await renter('overdue');
    const bill = await invoice(rita.id, { amount: '75.25' });
    const intent = await paidIntent(rita, bill.id);
    const report = { paymentIntentId: intent.paymentIntentId, invoiceId: bill.id, customerId: rita.id, customerEmail: rita.email };
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const response = await inject('POST', '/api/stripe/webhook/simulate', report, rita.cookie);
      expect(response.statusCode, response.body).toBe(200);
      answers.push(response.json().recorded);
    }
    expect(answers).toEqual([true, ...Array(9).fill(false)]);
    const payments = await paymentEvents(bill.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.data).toMatchObject({ amount: '75.25', method: 'card', stripePaymentIntentId: intent.paymentIntentId, customerId: rita.id });
    expect(payments[0]!.metadata.actor).toEqual({ type: 'customer', id: rita.id });
    await projected(`invoice-${bill.id}`);
    await projected(`customer-${rita.id}`);

    const detail = (await inject('GET', `/api/invoices/${bill.id}`, undefined, staff())).json();
    expect(detail).toMatchObject({
      status: 'paid',
      payments: [{ amount: '75.25', method: 'card', status: 'completed', stripePaymentIntentId: intent.paymentIntentId }],
    });
    expect(detail.payments).toHaveLength(1);
    // No overdue invoice is left: the customer is active again.
    expect((await inject('GET', `/api/customers/${rita.id}`, undefined, staff())).json().status).toBe('active');
    const activities = (await inject('GET', '/api/activities', undefined, staff())).json() as Array<{ type: string; description: string }>;
    expect(activities.filter((a) => a.type === 'payment_received' && a.description.includes(bill.invoiceNumber))).toHaveLength(1);
    const notifications = (await inject('GET', '/api/notifications', undefined, staff())).json() as Array<{ type: string; message: string }>;
    expect(notifications.filter((n) => n.type === 'payment_received' && n.message.includes(bill.invoiceNumber))).toHaveLength(1);
    // The customer's own invoice list shows it paid too.
    const own = await inject('GET', `/api/customer/invoices?email=${encodeURIComponent(rita.email)}`, undefined, rita.cookie);
    if (own.statusCode === 200) expect((own.json() as Array<{ id: string; status: string }>).find((i) => i.id === bill.id)?.status).toBe('paid');
  });

  it('records one payment when ten reports race', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id);
    const intent = await paidIntent(rita, bill.id);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId, fallbackEmail: rita.email })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(responses.filter((r) => r.json().recorded)).toHaveLength(1);
    expect(await paymentEvents(bill.id)).toHaveLength(1);
  });

  it('checks the report against the intent, and refuses a second intent on a paid invoice', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id);
    const first = await paidIntent(rita, bill.id);
    const simulate = (body: Record<string, unknown>) => inject('POST', '/api/stripe/webhook/simulate', body);
    expect((await simulate({ paymentIntentId: first.paymentIntentId, invoiceId: randomUUID() })).json().field).toBe('invoiceId');
    expect((await simulate({ paymentIntentId: first.paymentIntentId, customerId: randomUUID() })).json().field).toBe('customerId');
    expect((await simulate({ paymentIntentId: 'pi_test_unknown' })).statusCode).toBe(404);
    expect(await paymentEvents(bill.id)).toHaveLength(0);

    // The live intent took the money and its report has not come: a new intent is not made, the
    // payment is recorded now, and the invoice is paid.
    const again = await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This invoice is already paid');
    expect(await paymentEvents(bill.id)).toHaveLength(1);
    expect((await simulate({ paymentIntentId: first.paymentIntentId })).json()).toMatchObject({ recorded: false, refunded: false });
    expect(await paymentEvents(bill.id)).toHaveLength(1);
  });

  it('gives two tabs opened at once one intent, and the same one again later', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    // More at once than the database pool has connections: waiters must not hold one.
    const tabs = await Promise.all(Array.from({ length: 16 }, () => inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)));
    expect(tabs.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    const ids = new Set(tabs.map((r) => r.json().paymentIntentId));
    expect(ids.size).toBe(1);
    expect(new Set(tabs.map((r) => r.json().clientSecret)).size).toBe(1);
    const later = await payableIntent(rita, bill.id);
    expect(later.paymentIntentId).toBe([...ids][0]);
    // The answer carries the client secret: it is never kept for Idempotency-Key replays.
    const keyed = await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie, { 'idempotency-key': `intent-${bill.id}` });
    expect(keyed.json().paymentIntentId).toBe(later.paymentIntentId);
    expect(
      await platform.api.pool.anyFirst(sql.type(z.object({ key: z.string() }))`SELECT key FROM idempotency_keys WHERE key = ${`intent-${bill.id}`}`),
    ).toEqual([]);
    // One intent at the provider, and one live intent in our record.
    const atProvider = await platform.api.pool.anyFirst(
      sql.type(z.object({ id: z.string() }))`SELECT id FROM test_payment_intents WHERE invoice_id = ${bill.id}`,
    );
    expect(atProvider).toEqual([later.paymentIntentId]);
    const ours = await platform.api.pool.any(
      sql.type(z.object({ id: z.string(), state: z.string() }))`SELECT id, state FROM payment_intents WHERE invoice_id = ${bill.id}`,
    );
    expect(ours).toEqual([{ id: later.paymentIntentId, state: 'live' }]);
    // The database refuses a second live intent whatever the code does.
    await expect(
      platform.api.pool.query(sql.unsafe`
        INSERT INTO payment_intents (id, provider, invoice_id, customer_id, amount, state) VALUES ('pi_test_second', 'test', ${bill.id}, ${rita.id}, 100.00, 'live')`),
    ).rejects.toThrow();
  });

  it('cancels a live intent for a stale amount through the provider before making the next', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const current = await payableIntent(rita, bill.id);
    // An intent made for another amount (the balance it was made for has changed).
    await platform.api.pool.query(sql.unsafe`UPDATE test_payment_intents SET amount = 90.00 WHERE id = ${current.paymentIntentId}`);
    await platform.api.pool.query(sql.unsafe`UPDATE payment_intents SET amount = 90.00 WHERE id = ${current.paymentIntentId}`);
    const next = await payableIntent(rita, bill.id);
    expect(next.paymentIntentId).not.toBe(current.paymentIntentId);
    expect(next.amount).toBe('100.00');
    const status = (id: string) =>
      platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM test_payment_intents WHERE id = ${id}`);
    expect(await status(current.paymentIntentId)).toBe('canceled');
    const states = await platform.api.pool.any(sql.type(z.object({ id: z.string(), state: z.string() }))`
      SELECT id, state FROM payment_intents WHERE invoice_id = ${bill.id} ORDER BY created_at`);
    expect(states).toEqual([
      { id: current.paymentIntentId, state: 'cancelled' },
      { id: next.paymentIntentId, state: 'live' },
    ]);
    // The cancelled intent can no longer take money.
    const late = await inject('POST', `/api/test-provider/payment-intents/${current.paymentIntentId}/confirm`, goodCard, rita.cookie);
    expect(late.statusCode).toBe(409);
    expect(await status(current.paymentIntentId)).toBe('canceled');
  });

  /** An intent made outside our record, as before one live intent per invoice (or confirmed late). */
  async function strayIntent(rita: { id: string; email: string }, invoiceId: string, amount: string) {
    const id = `pi_test_stray${tag()}${tag()}`;
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO test_payment_intents (id, client_secret, amount, currency, status, invoice_id, customer_id, customer_email)
      VALUES (${id}, ${`${id}_secret_x`}, ${amount}, 'usd', 'requires_payment_method', ${invoiceId}, ${rita.id}, ${rita.email})`);
    return id;
  }

  async function refundEvents(invoiceId: string) {
    return (await platform.api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_refunded');
  }

  it('refunds a charge that is not the open balance instead of keeping it unrecorded, and leaves the invoice payable', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const stray = await strayIntent(rita, bill.id, '90.00');
    expect((await inject('POST', `/api/test-provider/payment-intents/${stray}/confirm`, goodCard, rita.cookie)).json().status).toBe('succeeded');
    const reports = await Promise.all(Array.from({ length: 5 }, () => inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: stray }, rita.cookie)));
    expect(reports.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect(reports.every((r) => r.json().refunded === true && r.json().recorded === false)).toBe(true);
    expect(await paymentEvents(bill.id)).toHaveLength(0);
    expect((await refundEvents(bill.id)).map((e) => e.data)).toEqual([
      expect.objectContaining({ stripePaymentIntentId: stray, amount: '90.00', reason: 'amount_not_balance' }),
    ]);
    expect(
      await platform.api.pool.oneFirst(
        sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM test_payment_refunds WHERE payment_intent_id = ${stray}`,
      ),
    ).toBe(1);
    // The bill is still open and the renter can pay it in full.
    const next = await payableIntent(rita, bill.id);
    expect(next.amount).toBe('100.00');
  });

  it('records one payment and refunds the other when two intents on one invoice are both paid, however the reports race', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const live = await payableIntent(rita, bill.id);
    const stray = await strayIntent(rita, bill.id, '100.00');
    for (const id of [live.paymentIntentId, stray]) {
      const confirmed = await inject('POST', `/api/test-provider/payment-intents/${id}/confirm`, goodCard, rita.cookie);
      expect(confirmed.json().status).toBe('succeeded');
    }
    // Ten reports, five of each intent, at once: the renter was charged 200.00 for a 100.00 bill.
    const reports = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: i % 2 ? stray : live.paymentIntentId }, rita.cookie),
      ),
    );
    expect(reports.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(reports.filter((r) => r.json().recorded)).toHaveLength(1);
    const payments = await paymentEvents(bill.id);
    const refunds = await refundEvents(bill.id);
    expect(payments).toHaveLength(1);
    expect(refunds).toHaveLength(1);
    const paidBy = payments[0]!.data.stripePaymentIntentId;
    const refunded = paidBy === stray ? live.paymentIntentId : stray;
    expect(refunds[0]!.data).toMatchObject({ stripePaymentIntentId: refunded, amount: '100.00', reason: 'invoice_already_paid', customerId: rita.id });
    expect(reports.filter((r) => r.json().paymentIntentId === refunded).every((r) => r.json().refunded === true)).toBe(true);
    // The provider refunded it once.
    const atProvider = await platform.api.pool.any(sql.type(z.object({ id: z.string(), amount: z.string() }))`
      SELECT id, amount::text FROM test_payment_refunds WHERE payment_intent_id = ${refunded}`);
    expect(atProvider).toEqual([{ id: refunds[0]!.data.refundId, amount: '100.00' }]);

    // Ten more reports later add nothing.
    const replays = await Promise.all(
      Array.from({ length: 10 }, (_, i) => inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: i % 2 ? stray : live.paymentIntentId })),
    );
    expect(replays.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(replays.filter((r) => r.json().recorded)).toHaveLength(0);
    expect(await paymentEvents(bill.id)).toHaveLength(1);
    expect(await refundEvents(bill.id)).toHaveLength(1);
    expect(
      await platform.api.pool.oneFirst(
        sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM test_payment_refunds WHERE payment_intent_id = ${refunded}`,
      ),
    ).toBe(1);

    // Staff see it: the invoice is paid, with the refunded charge beside the payment, in its history, the feed and a notification.
    await projected(`invoice-${bill.id}`);
    const detail = (await inject('GET', `/api/invoices/${bill.id}`, undefined, staff())).json();
    expect(detail.status).toBe('paid');
    expect(detail.payments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ amount: '100.00', status: 'completed', stripePaymentIntentId: paidBy }),
        expect.objectContaining({ amount: '100.00', status: 'refunded', stripePaymentIntentId: refunded }),
      ]),
    );
    expect(detail.payments).toHaveLength(2);
    expect(detail.history.map((h: { description: string }) => h.description)).toContain('Card payment of $100.00 refunded: the invoice was already paid');
    const activities = (await inject('GET', '/api/activities?tab=payments', undefined, staff())).json() as Array<{ type: string; description: string }>;
    expect(activities.filter((a) => a.type === 'payment_refunded' && a.description.includes(bill.invoiceNumber))).toHaveLength(1);
    const notifications = (await inject('GET', '/api/notifications', undefined, staff())).json() as Array<{ type: string; message: string }>;
    expect(notifications.filter((n) => n.type === 'payment_refunded' && n.message.includes(bill.invoiceNumber))).toHaveLength(1);
  });

  it('refunds a charge that succeeds on a cancelled invoice', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '42.00' });
    const intent = await paidIntent(rita, bill.id);
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    await cancelInvoice(ctx, bill.id);
    const reported = await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId });
    expect(reported.json()).toMatchObject({ recorded: false, refunded: true });
    expect(await paymentEvents(bill.id)).toHaveLength(0);
    const refunds = await refundEvents(bill.id);
    expect(refunds.map((e) => e.data)).toEqual([
      expect.objectContaining({ amount: '42.00', reason: 'invoice_cancelled', stripePaymentIntentId: intent.paymentIntentId }),
    ]);
  });

  it('refuses bad input on every call with 400 naming the field, and writes nothing', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id);
    const intent = await payableIntent(rita, bill.id);
    const cases: Array<[string, unknown, string | undefined]> = [
      ['/api/create-payment-intent', { amount: '120.00' }, 'invoiceId'],
      ['/api/create-payment-intent', { invoiceId: 'nope' }, 'invoiceId'],
      ['/api/create-payment-intent', { invoiceId: bill.id, amount: 'lots' }, 'amount'],
      ['/api/create-payment-intent', { invoiceId: bill.id, customerEmail: 'not-an-email' }, 'customerEmail'],
      ['/api/create-payment-intent', { invoiceId: bill.id, extra: 1 }, 'extra'],
      ['/api/create-payment-intent', [], undefined],
      [`/api/test-provider/payment-intents/${intent.paymentIntentId}/confirm`, { cardNumber: '4242424242424242', expiry: '12/40' }, 'cvc'],
      [`/api/test-provider/payment-intents/${intent.paymentIntentId}/confirm`, { ...goodCard, cardNumber: 4242 }, 'cardNumber'],
      ['/api/test-provider/payment-intents/not-an-intent/confirm', goodCard, 'id'],
      ['/api/stripe/webhook/simulate', {}, 'paymentIntentId'],
      ['/api/stripe/webhook/simulate', { paymentIntentId: 'ch_123' }, 'paymentIntentId'],
      ['/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId, invoiceId: 'x' }, 'invoiceId'],
      ['/api/stripe/webhook/simulate', { paymentIntentId: intent.paymentIntentId, fallbackEmail: 'x' }, 'fallbackEmail'],
      ['/api/stripe/webhook/simulate', ['not an object'], undefined],
    ];
    for (const [url, body, field] of cases) {
      const response = await inject('POST', url, body, rita.cookie);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
      if (field) expect(response.json().field, url).toBe(field);
    }
    expect(await paymentEvents(bill.id)).toHaveLength(0);
    // Stripe's signed webhook belongs to Stripe: the test provider has none.
    expect((await inject('POST', '/api/stripe/webhook', {}, undefined, { 'stripe-signature': 't=1,v1=x' })).statusCode).toBe(404);
  });
});

// Stripe cannot be reached from these machines: its path is tested offline. Webhooks are signed
// with the SDK's own generateTestHeaderString, and only the SDK's payment-intent calls (create,
// retrieve) are replaced, here and nowhere else, to see their request shapes and feed answers.
describe('payments API with Stripe (offline)', () => {
  const webhookSecret = 'whsec_test_offline_secret';
  const publishableKey = 'pk_test_51OfflineExampleKey1234';
  let platform: TestPlatform;
  const { inject, renter, invoice, paymentEvents } = billingFixture(() => platform);
  const offlineStripe = new Stripe('sk_test_offline');
  const paymentIntents = Object.getPrototypeOf(offlineStripe.paymentIntents) as {
    create: (...args: unknown[]) => unknown;
    retrieve: (...args: unknown[]) => unknown;
    cancel: (...args: unknown[]) => unknown;
  };
  const refunds = Object.getPrototypeOf(offlineStripe.refunds) as { create: (...args: unknown[]) => unknown };
  const stripeIntents = new Map<string, Record<string, unknown>>();
  const create = vi.spyOn(paymentIntents, 'create').mockImplementation(async (...args: unknown[]) => {
    const params = args[0] as { amount: number; currency: string; metadata: Record<string, string> };
    const id = `pi_${tag()}${tag()}`;
    const intent = { id, object: 'payment_intent', client_secret: `${id}_secret_x`, status: 'requires_payment_method', ...params };
    stripeIntents.set(id, intent);
    return intent;
  });
  vi.spyOn(paymentIntents, 'retrieve').mockImplementation(async (...args: unknown[]) => {
    const intent = stripeIntents.get(args[0] as string);
    if (!intent)
      throw new Stripe.errors.StripeInvalidRequestError({ type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' });
    return intent;
  });

  const cancel = vi.spyOn(paymentIntents, 'cancel').mockImplementation(async (...args: unknown[]) => {
    const intent = stripeIntents.get(args[0] as string);
    if (!intent)
      throw new Stripe.errors.StripeInvalidRequestError({ type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' });
    intent.status = 'canceled';
    return intent;
  });
  // Stripe answers a repeated idempotency key with the first refund.
  const stripeRefunds = new Map<string, Record<string, unknown>>();
  const refundCreate = vi.spyOn(refunds, 'create').mockImplementation(async (...args: unknown[]) => {
    const [params, options] = args as [{ payment_intent: string; amount: number }, { idempotencyKey: string }];
    const earlier = stripeRefunds.get(options.idempotencyKey);
    if (earlier) return earlier;
    const refund = { id: `re_${tag()}${tag()}`, object: 'refund', status: 'succeeded', ...params };
    stripeRefunds.set(options.idempotencyKey, refund);
    return refund;
  });

  beforeAll(async () => {
    platform = await startTestPlatform({
      config: { stripePublishableKey: publishableKey, stripeSecretKey: 'sk_test_offline', stripeWebhookSecret: webhookSecret },
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await platform?.close();
  });

  function signed(event: object, secret = webhookSecret) {
    const payload = JSON.stringify(event);
    return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) } };
  }
  const webhook = (request: { payload: string; headers: Record<string, string> }) =>
    platform.api.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: request.payload, headers: request.headers });
  const succeeded = (intentId: string, metadata = stripeIntents.get(intentId)?.metadata ?? {}) => ({
    id: `evt_${tag()}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: intentId, object: 'payment_intent', metadata } },
  });

  it('tells the portal the publishable key and lets Stripe.js in through the content security policy', async () => {
    const response = await inject('GET', '/api/payments/config');
    expect(response.json()).toEqual({ provider: 'stripe', publishableKey });
    expect(response.headers['content-security-policy']).toContain('https://js.stripe.com');
    expect(response.headers['content-security-policy']).toContain('https://api.stripe.com');
  });

  it('creates the intent for the open balance in cents with the invoice and customer in its metadata', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '120.50' });
    const response = await inject('POST', '/api/create-payment-intent', { amount: 1, invoiceId: bill.id, customerEmail: rita.email }, rita.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const { paymentIntentId, clientSecret } = response.json();
    expect(clientSecret).toBe(`${paymentIntentId}_secret_x`);
    expect(create).toHaveBeenLastCalledWith(
      expect.objectContaining({ amount: 12050, currency: 'usd', metadata: { invoiceId: bill.id, customerId: rita.id }, receipt_email: rita.email }),
      expect.objectContaining({ idempotencyKey: expect.stringContaining(bill.id) }),
    );
    // The test provider's card form does not exist under Stripe.
    expect((await inject('POST', `/api/test-provider/payment-intents/${paymentIntentId}/confirm`, goodCard, rita.cookie)).statusCode).toBe(404);
  });

  it('refuses webhooks without a valid signature and records nothing', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id);
    const { paymentIntentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json();
    stripeIntents.get(paymentIntentId)!.status = 'succeeded';
    const forged = signed(succeeded(paymentIntentId), 'whsec_someone_else');
    expect((await webhook(forged)).statusCode).toBe(400);
    const tampered = signed(succeeded(paymentIntentId));
    expect((await webhook({ ...tampered, payload: tampered.payload.replace('event', 'evenT') })).statusCode).toBe(400);
    const unsigned = await webhook({ payload: tampered.payload, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().field).toBe('stripe-signature');
    expect(await paymentEvents(bill.id)).toHaveLength(0);
  });

  it('records a signed payment_intent.succeeded once, asking Stripe for the real status and amount', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '88.00' });
    const { paymentIntentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json();
    // Stripe still says the intent has not succeeded: the event's word is not taken.
    expect((await webhook(signed(succeeded(paymentIntentId)))).statusCode).toBe(409);
    // Stripe says it succeeded, but for less than the open balance: that charge is given back, not kept or recorded.
    Object.assign(stripeIntents.get(paymentIntentId)!, { status: 'succeeded', amount: 100 });
    expect((await webhook(signed(succeeded(paymentIntentId)))).json()).toMatchObject({ recorded: false, refunded: true });
    expect(await paymentEvents(bill.id)).toHaveLength(0);
    expect(refundCreate).toHaveBeenCalledWith(
      expect.objectContaining({ payment_intent: paymentIntentId }),
      expect.objectContaining({ idempotencyKey: `refund-${paymentIntentId}` }),
    );

    const retry = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json();
    expect(retry.paymentIntentId).not.toBe(paymentIntentId);
    Object.assign(stripeIntents.get(retry.paymentIntentId)!, { status: 'succeeded', amount: 8800 });
    const replays = await Promise.all(Array.from({ length: 10 }, () => webhook(signed(succeeded(retry.paymentIntentId)))));
    expect(replays.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(replays.filter((r) => r.json().recorded)).toHaveLength(1);
    const payments = await paymentEvents(bill.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.data).toMatchObject({ amount: '88.00', stripePaymentIntentId: retry.paymentIntentId });
    expect(payments[0]!.metadata.actor).toEqual({ type: 'system' });

    const other = await webhook(signed({ id: `evt_${tag()}`, object: 'event', type: 'payment_intent.created', data: { object: { id: paymentIntentId } } }));
    expect(other.json()).toEqual({ received: true });
    // A payment that is not for an invoice of ours is acknowledged, so Stripe stops sending it.
    const foreign = await webhook(signed(succeeded('pi_someone_elses', {})));
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual({ received: true });
  });

  it('creates a payment toward the whole balance with only the customer in its metadata, and its signed webhook spreads it once', async () => {
    const rita = await renter();
    const older = await invoice(rita.id, { amount: '40.00', dueDate: isoDaysFromNow(-2) });
    const newer = await invoice(rita.id, { amount: '60.00' });
    const created = await inject('POST', '/api/customer/account-payment-intent', { amount: '70.00' }, rita.cookie);
    expect(created.statusCode, created.body).toBe(200);
    const { paymentIntentId } = created.json() as { paymentIntentId: string };
    expect(create).toHaveBeenLastCalledWith(
      expect.objectContaining({ amount: 7000, currency: 'usd', metadata: { customerId: rita.id } }),
      expect.objectContaining({ idempotencyKey: expect.stringContaining(`account-${rita.id}`) }),
    );
    stripeIntents.get(paymentIntentId)!.status = 'succeeded';
    const replays = await Promise.all(Array.from({ length: 4 }, () => webhook(signed(succeeded(paymentIntentId)))));
    expect(replays.map((r) => r.statusCode)).toEqual(Array(4).fill(200));
    expect(replays.filter((r) => r.json().recorded)).toHaveLength(1);
    expect((await paymentEvents(older.id)).map((e) => e.data)).toEqual([expect.objectContaining({ amount: '40.00', stripePaymentIntentId: paymentIntentId })]);
    expect((await paymentEvents(newer.id)).map((e) => e.data)).toEqual([expect.objectContaining({ amount: '30.00', stripePaymentIntentId: paymentIntentId })]);
  });

  it('asks Stripe for one intent when two tabs open at once, and cancels one for a stale amount before the next', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const calls = create.mock.calls.length;
    const tabs = await Promise.all(Array.from({ length: 4 }, () => inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)));
    expect(tabs.map((r) => r.statusCode)).toEqual(Array(4).fill(200));
    expect(new Set(tabs.map((r) => r.json().paymentIntentId)).size).toBe(1);
    expect(create.mock.calls.length - calls).toBe(1);
    const { paymentIntentId } = tabs[0]!.json();

    stripeIntents.get(paymentIntentId)!.amount = 9000;
    const next = await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie);
    expect(next.json().paymentIntentId).not.toBe(paymentIntentId);
    expect(cancel).toHaveBeenCalledWith(paymentIntentId, expect.anything());
    expect(stripeIntents.get(paymentIntentId)!.status).toBe('canceled');

    // A payment under way at Stripe is neither reused nor cancelled, and no second intent is made.
    const calls2 = create.mock.calls.length;
    stripeIntents.get(next.json().paymentIntentId)!.status = 'processing';
    const busy = await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie);
    expect(busy.statusCode).toBe(409);
    expect(create.mock.calls.length).toBe(calls2);
  });

  it('refunds through Stripe, once, a second intent that succeeds on a paid invoice', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const { paymentIntentId: first } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json();
    // A second intent from before one live intent per invoice, confirmed late.
    const second = `pi_${tag()}${tag()}`;
    stripeIntents.set(second, {
      id: second,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 10000,
      currency: 'usd',
      metadata: { invoiceId: bill.id, customerId: rita.id },
    });
    stripeIntents.get(first)!.status = 'succeeded';
    expect((await webhook(signed(succeeded(first)))).json()).toMatchObject({ recorded: true, refunded: false });

    const replays = await Promise.all(Array.from({ length: 10 }, () => webhook(signed(succeeded(second)))));
    expect(replays.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(replays.every((r) => r.json().refunded === true && r.json().recorded === false)).toBe(true);
    expect(refundCreate).toHaveBeenCalledWith(
      expect.objectContaining({ payment_intent: second, amount: 10000 }),
      expect.objectContaining({ idempotencyKey: `refund-${second}` }),
    );
    const keys = refundCreate.mock.calls
      .filter((call) => (call[0] as { payment_intent: string }).payment_intent === second)
      .map((call) => (call[1] as { idempotencyKey: string }).idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([`refund-${second}`]));
    expect(await paymentEvents(bill.id)).toHaveLength(1);
    const refunded = (await platform.api.store.readStream(`invoice-${bill.id}`)).filter((e) => e.type === 'payment_refunded');
    expect(refunded.map((e) => e.data)).toEqual([
      expect.objectContaining({
        stripePaymentIntentId: second,
        amount: '100.00',
        refundId: stripeRefunds.get(`refund-${second}`)!.id,
        reason: 'invoice_already_paid',
      }),
    ]);
  });
  it('records a payment Stripe took without a webhook, and retries a refund whose call to Stripe failed, through the reconciliation', async () => {
    const provider = createPaymentProvider(
      { stripePublishableKey: publishableKey, stripeSecretKey: 'sk_test_offline', stripeWebhookSecret: webhookSecret },
      platform.api.pool,
    );
    const reconcile = () => reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '64.00' });
    const { paymentIntentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json();
    stripeIntents.get(paymentIntentId)!.status = 'succeeded';
    await reconcile();
    await reconcile();
    expect((await paymentEvents(bill.id)).map((e) => e.data)).toEqual([
      expect.objectContaining({ amount: '64.00', method: 'card', stripePaymentIntentId: paymentIntentId }),
    ]);
    expect((await webhook(signed(succeeded(paymentIntentId)))).json()).toMatchObject({ recorded: false, refunded: false });

    // A second charge on the paid invoice; Stripe cannot be reached for its first refund call.
    const second = `pi_${tag()}${tag()}`;
    stripeIntents.set(second, {
      id: second,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 6400,
      currency: 'usd',
      metadata: { invoiceId: bill.id, customerId: rita.id },
    });
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO payment_intents (id, provider, invoice_id, customer_id, amount, state) VALUES (${second}, 'stripe', ${bill.id}, ${rita.id}, 64.00, 'succeeded')`);
    const original = refundCreate.getMockImplementation()!;
    let unreachable = true;
    refundCreate.mockImplementation(async (...args: unknown[]) => {
      if (unreachable && (args[0] as { payment_intent: string }).payment_intent === second) {
        unreachable = false;
        throw new Stripe.errors.StripeConnectionError({ message: 'An error occurred with our connection to Stripe.' });
      }
      return original(...args);
    });
    try {
      const first = await reconcile();
      expect(first.failures.filter((f) => f.paymentIntentId === second)).toHaveLength(1);
      expect((await platform.api.store.readStream(`invoice-${bill.id}`)).filter((e) => e.type === 'payment_refunded')).toHaveLength(0);
      await reconcile();
      await reconcile();
    } finally {
      refundCreate.mockImplementation(original);
    }
    const refunded = (await platform.api.store.readStream(`invoice-${bill.id}`)).filter((e) => e.type === 'payment_refunded');
    expect(refunded.map((e) => e.data)).toEqual([
      expect.objectContaining({
        stripePaymentIntentId: second,
        amount: '64.00',
        refundId: stripeRefunds.get(`refund-${second}`)!.id,
        reason: 'invoice_already_paid',
      }),
    ]);
    expect(await paymentEvents(bill.id)).toHaveLength(1);
  });
});

// The payment reconciliation process (api/src/payments/reconcile.ts): what the projector runs
// every minute, called here at once with a grace of 0, as `npm run ops -- payments:reconcile` does.
describe('payment reconciliation with the built-in test provider', () => {
  let platform: TestPlatform;
  const { inject, projected, renter, invoice, paymentEvents, staff } = billingFixture(() => platform);

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** The provider the API and the projector build from this configuration, or one with faults of its own. */
  const configuredProvider = () => createPaymentProvider(readConfig({}), platform.api.pool);
  const reconcile = (options: { provider?: PaymentProvider; now?: Date; graceMs?: number } = {}) =>
    reconcilePayments(
      { pool: platform.api.pool, store: platform.api.store, provider: options.provider ?? configuredProvider() },
      options.now ?? new Date(),
      options.graceMs ?? 0,
    );

  /** The renter opens the pay page and confirms the card; the success page never reports it (the tab was closed). */
  async function confirmedUnreported(rita: { cookie: string }, invoiceId: string) {
    const created = await inject('POST', '/api/create-payment-intent', { invoiceId }, rita.cookie);
    expect(created.statusCode, created.body).toBe(200);
    const { paymentIntentId } = created.json() as { paymentIntentId: string };
    const confirmed = await inject('POST', `/api/test-provider/payment-intents/${paymentIntentId}/confirm`, goodCard, rita.cookie);
    expect(confirmed.json().status).toBe('succeeded');
    return paymentIntentId;
  }

  async function refundEvents(invoiceId: string) {
    return (await platform.api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_refunded');
  }
  const refundsAtProvider = (intentId: string) =>
    platform.api.pool.any(
      sql.type(z.object({ id: z.string(), amount: z.string() }))`SELECT id, amount::text FROM test_payment_refunds WHERE payment_intent_id = ${intentId}`,
    );
  const ourRecord = (intentId: string) =>
    platform.api.pool.one(sql.type(z.object({ state: z.string(), settled: z.boolean(), last_error: z.string().nullable() }))`
      SELECT state, settled_at IS NOT NULL AS settled, last_error FROM payment_intents WHERE id = ${intentId}`);

  /** Paid at the desk while the renter's tab still holds the card form. */
  async function paidByCash(invoiceId: string, amount: string) {
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    await recordPayment(ctx, invoiceId, { amount, method: 'cash', stripePaymentIntentId: null });
  }

  it('records a payment nobody reported, once, after its grace period: the invoice is paid and the renter in good standing again', async () => {
    const rita = await renter('overdue');
    const bill = await invoice(rita.id, { amount: '75.25' });
    const intentId = await confirmedUnreported(rita, bill.id);

    // Within the grace period the success page may still report it: the process leaves it alone.
    await reconcile({ graceMs: readConfig({}).paymentGraceMs });
    expect(await paymentEvents(bill.id)).toHaveLength(0);
    expect(await ourRecord(intentId)).toMatchObject({ state: 'live', settled: false });

    const run = await reconcile();
    expect(run.failures).toEqual([]);
    expect(run.actions.recorded).toBe(1);
    const payments = await paymentEvents(bill.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.data).toMatchObject({ amount: '75.25', method: 'card', stripePaymentIntentId: intentId, customerId: rita.id });
    expect(payments[0]!.metadata.actor).toEqual({ type: 'system' });
    expect(await ourRecord(intentId)).toEqual({ state: 'succeeded', settled: true, last_error: null });
    await projected(`invoice-${bill.id}`);
    await projected(`customer-${rita.id}`);
    const detail = (await inject('GET', `/api/invoices/${bill.id}`, undefined, staff())).json();
    expect(detail).toMatchObject({ status: 'paid', payments: [{ amount: '75.25', method: 'card', status: 'completed', stripePaymentIntentId: intentId }] });
    expect((await inject('GET', `/api/customers/${rita.id}`, undefined, staff())).json().status).toBe('active');

    // A second run finds nothing left to do; a late report of the success page records nothing.
    const again = await reconcile();
    expect(again.actions.recorded ?? 0).toBe(0);
    const late = await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intentId }, rita.cookie);
    expect(late.json()).toMatchObject({ recorded: false, refunded: false });
    expect(await paymentEvents(bill.id)).toHaveLength(1);
  });

  it('records one payment when runs on two replicas race the success page reporting it', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '60.00' });
    const intentId = await confirmedUnreported(rita, bill.id);
    const report = () => inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intentId }, rita.cookie);
    const [runA, runB, ...reports] = await Promise.all([reconcile(), reconcile(), report(), report(), report()]);
    expect(reports.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(runA!.failures).toEqual([]);
    expect(runB!.failures).toEqual([]);
    const recordings = (runA!.actions.recorded ?? 0) + (runB!.actions.recorded ?? 0) + reports.filter((r) => r.json().recorded).length;
    expect(recordings).toBe(1);
    expect(await paymentEvents(bill.id)).toHaveLength(1);
    expect(await refundEvents(bill.id)).toHaveLength(0);
    expect(await ourRecord(intentId)).toMatchObject({ state: 'succeeded', settled: true });
  });

  it('refunds once a charge confirmed on an invoice already paid, and staff see it', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '100.00' });
    const created = await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie);
    const { paymentIntentId: intentId } = created.json() as { paymentIntentId: string };
    await paidByCash(bill.id, '100.00');
    // The renter's tab still holds the card form, and pays.
    const confirmed = await inject('POST', `/api/test-provider/payment-intents/${intentId}/confirm`, goodCard, rita.cookie);
    expect(confirmed.json().status).toBe('succeeded');

    const runs = await Promise.all([reconcile(), reconcile()]);
    expect(runs.flatMap((r) => r.failures)).toEqual([]);
    expect(runs.reduce((n, r) => n + (r.actions.refunded ?? 0), 0)).toBe(1);
    await reconcile();
    expect((await inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId: intentId })).json()).toMatchObject({ recorded: false, refunded: true });

    const refunds = await refundEvents(bill.id);
    expect(refunds.map((e) => e.data)).toEqual([
      expect.objectContaining({ stripePaymentIntentId: intentId, amount: '100.00', reason: 'invoice_already_paid' }),
    ]);
    expect(await refundsAtProvider(intentId)).toEqual([{ id: refunds[0]!.data.refundId, amount: '100.00' }]);
    expect((await paymentEvents(bill.id)).map((e) => e.data.method)).toEqual(['cash']);
    expect(await ourRecord(intentId)).toMatchObject({ state: 'succeeded', settled: true });
    await projected(`invoice-${bill.id}`);
    const detail = (await inject('GET', `/api/invoices/${bill.id}`, undefined, staff())).json();
    expect(detail.payments).toEqual(
      expect.arrayContaining([expect.objectContaining({ amount: '100.00', status: 'refunded', stripePaymentIntentId: intentId })]),
    );
  });

  it('retries at the next run a refund whose provider call failed, and refunds once', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '55.00' });
    const intentId = await confirmedUnreported(rita, bill.id);
    await paidByCash(bill.id, '55.00');
    // This provider's first refund call fails, as an outage at the provider would.
    let failuresLeft = 1;
    const flaky = createTestProvider(platform.api.pool, {
      beforeRefund() {
        if (failuresLeft-- > 0) throw new Error('The payment provider could not be reached');
      },
    });

    const first = await reconcile({ provider: flaky });
    expect(first.failures).toEqual([{ paymentIntentId: intentId, error: 'The payment provider could not be reached' }]);
    expect(await refundEvents(bill.id)).toHaveLength(0);
    expect(await refundsAtProvider(intentId)).toEqual([]);
    expect(await ourRecord(intentId)).toEqual({ state: 'live', settled: false, last_error: 'The payment provider could not be reached' });

    const second = await reconcile({ provider: flaky });
    expect(second.failures).toEqual([]);
    expect(second.actions.refunded).toBe(1);
    expect(await ourRecord(intentId)).toEqual({ state: 'succeeded', settled: true, last_error: null });
    await reconcile({ provider: flaky });
    const refunds = await refundEvents(bill.id);
    expect(refunds.map((e) => e.data)).toEqual([expect.objectContaining({ stripePaymentIntentId: intentId, amount: '55.00', reason: 'invoice_already_paid' })]);
    expect(await refundsAtProvider(intentId)).toEqual([{ id: refunds[0]!.data.refundId, amount: '55.00' }]);
  });

  it('cancels through the provider a payable intent whose invoice was paid by other means, so it never takes money', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '30.00' });
    const { paymentIntentId: intentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json() as {
      paymentIntentId: string;
    };
    await paidByCash(bill.id, '30.00');
    const run = await reconcile();
    expect(run.failures).toEqual([]);
    expect(run.actions.cancelled).toBe(1);
    expect(await platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM test_payment_intents WHERE id = ${intentId}`)).toBe(
      'canceled',
    );
    expect((await ourRecord(intentId)).state).toBe('cancelled');
    const late = await inject('POST', `/api/test-provider/payment-intents/${intentId}/confirm`, goodCard, rita.cookie);
    expect(late.statusCode).toBe(409);
    expect(await refundsAtProvider(intentId)).toEqual([]);
  });

  it('asks about an abandoned intent at doubling intervals, not at every run', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '20.00' });
    const { paymentIntentId: intentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json() as {
      paymentIntentId: string;
    };
    const checks = () => platform.api.pool.oneFirst(sql.type(z.object({ checks: z.number() }))`SELECT checks FROM payment_intents WHERE id = ${intentId}`);
    const now = Date.now();
    await reconcile({ now: new Date(now) });
    expect(await checks()).toBe(1);
    await reconcile({ now: new Date(now + 60_000) });
    expect(await checks()).toBe(1);
    await reconcile({ now: new Date(now + 121_000) });
    expect(await checks()).toBe(2);
    await reconcile({ now: new Date(now + 121_000 + 200_000) });
    expect(await checks()).toBe(2);
    await reconcile({ now: new Date(now + 121_000 + 241_000) });
    expect(await checks()).toBe(3);
    // Paid meanwhile in a tab left open: the next run at its time records it.
    await inject('POST', `/api/test-provider/payment-intents/${intentId}/confirm`, goodCard, rita.cookie);
    const run = await reconcile({ now: new Date(now + 121_000 + 241_000 + 481_000) });
    expect(run.actions.recorded).toBe(1);
    expect(await paymentEvents(bill.id)).toHaveLength(1);
  });

  it('is a BullMQ job scheduler that runs every minute', async () => {
    const queue = createQueue(SCHEDULED_JOBS_QUEUE, queueConnection({ redisUrl: undefined, databaseUrl: platform.database.url }));
    try {
      expect(await queue.getJobScheduler(`${RECONCILE_PAYMENTS_JOB}-every-minute`)).toMatchObject({ name: RECONCILE_PAYMENTS_JOB, pattern: '* * * * *' });
    } finally {
      await queue.close();
    }
  });
});

describe("the projector's scheduled payment reconciliation", () => {
  let platform: TestPlatform;
  const { inject, renter, invoice, paymentEvents, staff } = billingFixture(() => platform);

  beforeAll(async () => {
    // The projector takes its grace period from the configuration (PAYMENT_GRACE_SECONDS=0).
    platform = await startTestPlatform({ config: { paymentGraceMs: 0 } });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('records, with the configured provider, a payment nobody reported when its job runs', async () => {
    const rita = await renter();
    const bill = await invoice(rita.id, { amount: '45.00' });
    const { paymentIntentId } = (await inject('POST', '/api/create-payment-intent', { invoiceId: bill.id }, rita.cookie)).json() as { paymentIntentId: string };
    expect((await inject('POST', `/api/test-provider/payment-intents/${paymentIntentId}/confirm`, goodCard, rita.cookie)).json().status).toBe('succeeded');
    const queue = createQueue(SCHEDULED_JOBS_QUEUE, queueConnection({ redisUrl: undefined, databaseUrl: platform.database.url }));
    try {
      // What the scheduler adds every minute, added now.
      await queue.add(RECONCILE_PAYMENTS_JOB, {});
      const deadline = Date.now() + 20_000;
      while ((await paymentEvents(bill.id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await queue.close();
    }
    expect((await paymentEvents(bill.id)).map((e) => e.data)).toEqual([expect.objectContaining({ amount: '45.00', stripePaymentIntentId: paymentIntentId })]);
    // The projector was woken: staff see the invoice paid.
    const deadline = Date.now() + 15_000;
    let status = '';
    while (status !== 'paid' && Date.now() < deadline) {
      status = (await inject('GET', `/api/invoices/${bill.id}`, undefined, staff())).json().status;
      if (status !== 'paid') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('paid');
  });
});

// The portal pays any amount from the minimum due up to the whole balance; the server spreads it
// over the open invoices oldest first (as a desk payment is), once per intent however it is
// reported, and what the invoices no longer need is credit on the account.
describe('paying an amount toward the whole balance', () => {
  let platform: TestPlatform;
  const { inject, projected, renter, invoice, paymentEvents, staff } = billingFixture(() => platform);

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  type Rita = { id: string; email: string; cookie: string };
  const account = async (rita: Rita) => {
    await projected(`account-${rita.id}`);
    const response = await inject('GET', '/api/customer/account', undefined, rita.cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { openBalance: string; status: string; minimumDue: string; credit: string };
  };
  const startPaying = (rita: Rita, amount: string) => inject('POST', '/api/customer/account-payment-intent', { amount }, rita.cookie);
  async function confirmed(rita: Rita, amount: string) {
    const created = await startPaying(rita, amount);
    expect(created.statusCode, created.body).toBe(200);
    const { paymentIntentId } = created.json() as { paymentIntentId: string; amount: string };
    expect(created.json().amount).toBe(amount);
    const paid = await inject('POST', `/api/test-provider/payment-intents/${paymentIntentId}/confirm`, goodCard, rita.cookie);
    expect(paid.json().status).toBe('succeeded');
    return paymentIntentId;
  }
  const report = (rita: Rita, paymentIntentId: string) => inject('POST', '/api/stripe/webhook/simulate', { paymentIntentId, customerId: rita.id }, rita.cookie);
  const plans = async (customerId: string) =>
    (await platform.api.store.readStream(`account-${customerId}`)).filter((e) => e.type === 'portal_payment_received');
  const reconcile = () =>
    reconcilePayments(
      { pool: platform.api.pool, store: platform.api.store, provider: createPaymentProvider(readConfig({}), platform.api.pool) },
      new Date(),
      0,
    );
  const invoiceRow = (id: string) =>
    platform.api.pool.one(sql.type(z.object({ amount_paid: z.string(), status: z.string() }))`SELECT amount_paid::text, status FROM invoices WHERE id = ${id}`);

  /** An invoice due 3 days ago (100.00) and one due in 10 days (80.00). */
  async function twoBills(rita: Rita) {
    const older = await invoice(rita.id, { amount: '100.00', dueDate: isoDaysFromNow(-3) });
    const newer = await invoice(rita.id, { amount: '80.00', dueDate: isoDaysFromNow(10) });
    return { older, newer };
  }

  it('tells the renter the whole balance, the minimum due (what is due today or earlier, else 0.01) and their credit', async () => {
    const rita = await renter();
    await twoBills(rita);
    expect(await account(rita)).toEqual({ openBalance: '180.00', status: 'CURRENT', minimumDue: '100.00', credit: '0.00' });
    const early = await renter();
    await invoice(early.id, { amount: '55.00', dueDate: isoDaysFromNow(20) });
    expect(await account(early)).toMatchObject({ openBalance: '55.00', minimumDue: '0.01' });
    const none = await renter();
    expect(await account(none)).toMatchObject({ openBalance: '0.00', minimumDue: '0.00' });
  });

  it('refuses an amount outside the minimum due to the whole balance with 400 naming amount, and asks the provider for nothing', async () => {
    const rita = await renter();
    await twoBills(rita);
    for (const amount of ['99.99', '180.01', '0.00', '-5.00', 'lots', '10.001']) {
      const response = await startPaying(rita, amount);
      expect(response.statusCode, `${amount}: ${response.body}`).toBe(400);
      expect(response.json().field, amount).toBe('amount');
    }
    expect((await startPaying(rita, '99.99')).json().message).toContain('$100.00');
    const none = await renter();
    const nothingOwed = await startPaying(none, '10.00');
    expect(nothingOwed.statusCode).toBe(400);
    expect(nothingOwed.json()).toMatchObject({ field: 'amount', message: expect.stringContaining('nothing is owed') });
    expect((await inject('POST', '/api/customer/account-payment-intent', { amount: '100.00' })).statusCode).toBe(401);
    const intents = await platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int AS n FROM test_payment_intents WHERE customer_id IN (${rita.id}, ${none.id})`);
    expect(intents).toBe(0);
  });

  it('spreads a partial payment over the open invoices oldest first, by card with the intent id, and the balance drops by it', async () => {
    const rita = await renter();
    const { older, newer } = await twoBills(rita);
    const intentId = await confirmed(rita, '130.00');
    const reported = await report(rita, intentId);
    expect(reported.statusCode, reported.body).toBe(200);
    expect(reported.json()).toEqual({
      paymentIntentId: intentId,
      invoiceId: null,
      recorded: true,
      refunded: false,
      summary: expect.objectContaining({ amount: '130.00', balance: '50.00' }),
    });
    const [first] = await paymentEvents(older.id);
    const [second] = await paymentEvents(newer.id);
    expect(first!.data).toMatchObject({ amount: '100.00', method: 'card', stripePaymentIntentId: intentId });
    expect(second!.data).toMatchObject({ amount: '30.00', method: 'card', stripePaymentIntentId: intentId });
    expect(first!.metadata.actor).toEqual({ type: 'customer', id: rita.id });
    expect((await plans(rita.id)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        amount: '130.00',
        stripePaymentIntentId: intentId,
        allocations: [
          { invoiceId: older.id, amount: '100.00' },
          { invoiceId: newer.id, amount: '30.00' },
        ],
        credit: '0.00',
      }),
    ]);
    await projected(`invoice-${newer.id}`);
    expect(await invoiceRow(older.id)).toEqual({ amount_paid: '100.00', status: 'paid' });
    expect(await invoiceRow(newer.id)).toEqual({ amount_paid: '30.00', status: 'sent' });
    expect(await account(rita)).toMatchObject({ openBalance: '50.00', minimumDue: '0.01', credit: '0.00' });
  });

  it('pays once however often the payment is reported, replayed or raced, and by the reconciliation too', async () => {
    const rita = await renter();
    const { older, newer } = await twoBills(rita);
    const intentId = await confirmed(rita, '180.00');
    const raced = await Promise.all([...Array.from({ length: 6 }, () => report(rita, intentId)), reconcile()]);
    const reports = raced.slice(0, 6) as Awaited<ReturnType<typeof report>>[];
    expect(reports.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    const run = raced[6] as Awaited<ReturnType<typeof reconcile>>;
    expect(run.failures).toEqual([]);
    expect(reports.filter((r) => r.json().recorded).length + (run.actions.recorded ?? 0)).toBe(1);
    for (let i = 0; i < 3; i++) expect((await report(rita, intentId)).json()).toMatchObject({ recorded: false, refunded: false });
    expect((await reconcile()).actions.recorded ?? 0).toBe(0);
    expect(await plans(rita.id)).toHaveLength(1);
    expect((await paymentEvents(older.id)).map((e) => e.data.amount)).toEqual(['100.00']);
    expect((await paymentEvents(newer.id)).map((e) => e.data.amount)).toEqual(['80.00']);
    expect(await account(rita)).toMatchObject({ openBalance: '0.00', credit: '0.00' });
  });

  it('finishes a recorded plan after a crash between its steps, paying nothing twice', async () => {
    const rita = await renter();
    const { older, newer } = await twoBills(rita);
    const intentId = await confirmed(rita, '150.00');
    // The first report crashed after writing the plan and paying the older invoice its part.
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const receiptId = derivedId('portal-payment', intentId);
    const plan = {
      customerId: rita.id,
      receiptId,
      amount: '150.00',
      stripePaymentIntentId: intentId,
      allocations: [
        { invoiceId: older.id, amount: '100.00' },
        { invoiceId: newer.id, amount: '50.00' },
      ],
      credit: '0.00',
    };
    await platform.api.store.append(`account-${rita.id}`, [envelope(ctx, { type: 'portal_payment_received', data: plan })], { expectedRevision: 'any' });
    const part = { amount: '100.00', method: 'card' as const, stripePaymentIntentId: intentId, reference: null, receiptId };
    await recordPayment(ctx, older.id, part, derivedId('portal-payment', receiptId, older.id));

    const again = await report(rita, intentId);
    expect(again.json()).toMatchObject({ recorded: false, refunded: false });
    expect(await plans(rita.id)).toHaveLength(1);
    expect((await paymentEvents(older.id)).map((e) => e.data.amount)).toEqual(['100.00']);
    expect((await paymentEvents(newer.id)).map((e) => e.data.amount)).toEqual(['50.00']);
    expect(await account(rita)).toMatchObject({ openBalance: '30.00' });
  });

  it('keeps as credit what the invoices no longer need when the balance dropped after the renter chose the amount', async () => {
    const rita = await renter();
    const { older, newer } = await twoBills(rita);
    const created = await startPaying(rita, '180.00');
    const { paymentIntentId } = created.json() as { paymentIntentId: string };
    // Paid at the desk while the card form was open.
    const desk = await inject('POST', `/api/customers/${rita.id}/payments`, { amount: '100.00', method: 'cash', reference: null }, staff());
    expect(desk.statusCode, desk.body).toBe(201);
    expect((await inject('POST', `/api/test-provider/payment-intents/${paymentIntentId}/confirm`, goodCard, rita.cookie)).json().status).toBe('succeeded');
    expect((await report(rita, paymentIntentId)).json()).toMatchObject({ recorded: true, refunded: false });
    expect((await paymentEvents(older.id)).map((e) => e.data.method)).toEqual(['cash']);
    expect((await paymentEvents(newer.id)).map((e) => e.data)).toEqual([expect.objectContaining({ amount: '80.00', method: 'card' })]);
    expect((await plans(rita.id)).map((e) => e.data)).toEqual([expect.objectContaining({ amount: '180.00', credit: '100.00' })]);
    // Not refunded silently: the money is on the account, for the next invoice.
    expect(
      await platform.api.pool.anyFirst(
        sql.type(z.object({ id: z.string() }))`SELECT id FROM test_payment_refunds WHERE payment_intent_id = ${paymentIntentId}`,
      ),
    ).toEqual([]);
    expect(await account(rita)).toMatchObject({ openBalance: '0.00', credit: '100.00' });
    const credits = await platform.api.pool.any(sql.type(z.object({ description: z.string(), amount: z.string() }))`
      SELECT description, amount::text FROM ledger_entries WHERE customer_id = ${rita.id} AND kind = 'credit'`);
    expect(credits).toEqual([{ description: 'Payment — card, kept as credit', amount: '-100.00' }]);
    const customer = (await inject('GET', `/api/customers/${rita.id}/account`, undefined, staff())).json();
    expect(customer).toMatchObject({ openBalance: '0.00', credit: '100.00' });
  });

  it('gives a reload the same intent for the same amount, and replaces it through the provider for another amount', async () => {
    const rita = await renter();
    await twoBills(rita);
    const first = (await startPaying(rita, '120.00')).json();
    expect((await startPaying(rita, '120.00')).json().paymentIntentId).toBe(first.paymentIntentId);
    const second = (await startPaying(rita, '150.00')).json();
    expect(second.paymentIntentId).not.toBe(first.paymentIntentId);
    const statuses = await platform.api.pool.any(sql.type(z.object({ id: z.string(), status: z.string() }))`
      SELECT id, status FROM test_payment_intents WHERE customer_id = ${rita.id} ORDER BY created_at`);
    expect(statuses).toEqual([
      { id: first.paymentIntentId, status: 'canceled' },
      { id: second.paymentIntentId, status: 'requires_payment_method' },
    ]);
  });
});
