import { randomUUID } from 'node:crypto';
import { RefundAnswer } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { giveCredit } from '@storage/domain/payments/desk';
import { recordIntentPayment } from '@storage/domain/payments/record';
import { refundPayment } from '@storage/domain/payments/refunds';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { staffRefundKeyOf } from '@storage/platform/payments/provider';
import { createStripeProvider } from '@storage/platform/payments/stripe-provider';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { sql } from 'slonik';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

// Refunds staff give over HTTP: part or all of a payment (never more than it has left), a card
// payment through the provider once however often the request is repeated, the invoice reopened
// as the money is owed again, the ledger's refund entry; credit handed back; who may do it.

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: `12/${nextYear}`, cvc: '123' };

describe('refunds over HTTP', () => {
  let platform: TestPlatform;
  const cookies: Record<string, string> = {};
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const settle = async <T extends { position: Position | null }>(result: T): Promise<T> => {
    if (result.position) expect(await platform.api.afterAppend(result.position, 10_000)).toBe(true);
    return result;
  };
  const post = (url: string, payload: unknown, role = 'owner', headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie: cookies[role]!, ...headers } });
  const get = (url: string, role = 'owner') => platform.api.app.inject({ method: 'GET', url, headers: { cookie: cookies[role]! } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    for (const role of ['owner', 'manager', 'clerk', 'auditor'] as const) cookies[role] = await platform.signIn(role);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await platform?.close();
  });

  async function renter() {
    const tag = randomUUID().slice(0, 8);
    const customer = await settle(await addCustomer(ctx(), renterFields('Rhea', 'Refund', tag)));
    if (customer.state.status === 'none') throw new Error('no customer');
    return customer.state.customerId;
  }

  async function sentInvoice(customerId: string, amount: string, dueDate: string) {
    const made = await generateInvoice(ctx(), {
      invoiceNumber: `INV-R-${randomUUID().slice(0, 8)}`,
      customerId,
      leaseId: null,
      amount,
      dueDate,
      status: 'draft',
      description: 'Rent',
    });
    if (made.state.status === 'none') throw new Error('no invoice');
    await settle(await sendInvoice(ctx(), made.state.invoiceId));
    return { id: made.state.invoiceId, number: made.state.fields.invoiceNumber };
  }

  async function paidInCash(amount: string, dueDate = '2099-01-01') {
    const customerId = await renter();
    const invoice = await sentInvoice(customerId, amount, dueDate);
    const paymentId = randomUUID();
    await settle(await recordPayment(ctx(), invoice.id, { amount, method: 'cash', stripePaymentIntentId: null }, paymentId));
    return { customerId, invoice, paymentId };
  }

  const refundEvents = async (invoiceId: string) =>
    (await platform.api.store.readStream(streams.invoice(invoiceId))).filter((e) => e.type === 'payment_refund_issued');
  const invoiceRow = (id: string) =>
    platform.api.pool.one(sql.type(z.object({ status: z.string(), amount_paid: z.string(), paid_date: z.string().nullable() }))`
      SELECT status, amount_paid::text, paid_date::text FROM invoices WHERE id = ${id}`);
  const ledgerOf = (customerId: string) =>
    platform.api.pool.any(sql.type(z.object({ kind: z.string(), amount: z.string(), description: z.string() }))`
      SELECT kind, amount::text, description FROM ledger_entries WHERE customer_id = ${customerId} ORDER BY position`);

  it('refunds part of a cash payment and then the rest: the invoice reopens, the statement shows each refund, and a repeat refunds once', async () => {
    const { customerId, invoice, paymentId } = await paidInCash('100.00');
    const key = { 'idempotency-key': `refund-${randomUUID()}` };
    const first = await post(`/api/payments/${paymentId}/refund`, { amount: '30.00', reason: 'Gate broken for a week' }, 'manager', key);
    expect(first.statusCode, first.body).toBe(201);
    expect(RefundAnswer.parse(first.json())).toMatchObject({
      paymentId,
      invoiceId: invoice.id,
      amount: '30.00',
      providerRefundId: null,
      invoiceStatus: 'sent',
    });
    const again = await post(`/api/payments/${paymentId}/refund`, { amount: '30.00', reason: 'Gate broken for a week' }, 'manager', key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await refundEvents(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toEqual({ status: 'sent', amount_paid: '70.00', paid_date: null });

    const detail = (await get(`/api/invoices/${invoice.id}`)).json();
    expect(detail.payments).toEqual([
      expect.objectContaining({ id: paymentId, amount: '100.00', status: 'completed', amountRefunded: '30.00' }),
      expect.objectContaining({ id: first.json().refundId, amount: '30.00', status: 'refunded', method: 'cash' }),
    ]);
    expect(detail.history.map((h: { description: string }) => h.description)).toContain(
      'Refund of $30.00 by cash: Gate broken for a week (the invoice is now sent)',
    );

    const rest = await post(`/api/payments/${paymentId}/refund`, { amount: '70.00', reason: 'Moved away' });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'sent', amount_paid: '0.00' });
    const more = await post(`/api/payments/${paymentId}/refund`, { amount: '0.01', reason: 'Once more' });
    expect(more.statusCode).toBe(400);
    expect(more.json()).toMatchObject({ field: 'amount' });

    // The ledger: a refund raises what the renter owes; the statement the renter is handed says so.
    expect((await ledgerOf(customerId)).map((r) => [r.kind, r.amount])).toEqual([
      ['charge', '100.00'],
      ['payment', '-100.00'],
      ['refund', '30.00'],
      ['refund', '70.00'],
    ]);
    const ledger = (await get(`/api/customers/${customerId}/ledger`)).json();
    expect(ledger.balance).toBe('100.00');
    expect(ledger.entries[2]).toMatchObject({
      kind: 'refund',
      description: `Refund — cash, invoice ${invoice.number}: Gate broken for a week`,
      balance: '30.00',
    });
  });

  it('refuses more than the payment has left with 400 naming amount and writes nothing; clerks and auditors get 403', async () => {
    const { invoice, paymentId } = await paidInCash('50.00');
    expect((await post(`/api/payments/${paymentId}/refund`, { amount: '20.00', reason: 'Part' })).statusCode).toBe(201);
    const over = await post(`/api/payments/${paymentId}/refund`, { amount: '30.01', reason: 'Too much' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ field: 'amount' });
    expect(over.json().message ?? over.body).toContain('30.00');
    for (const [payload, field] of [
      [{ amount: '0.00', reason: 'x' }, 'amount'],
      [{ amount: '-1.00', reason: 'x' }, 'amount'],
      [{ amount: '1.005', reason: 'x' }, 'amount'],
      [{ amount: '1.00', reason: '' }, 'reason'],
      [{ amount: '1.00' }, 'reason'],
    ] as const) {
      const response = await post(`/api/payments/${paymentId}/refund`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().field).toBe(field);
    }
    expect((await post(`/api/payments/${paymentId}/refund`, { amount: '1.00', reason: 'x' }, 'clerk')).statusCode).toBe(403);
    expect((await post(`/api/payments/${paymentId}/refund`, { amount: '1.00', reason: 'x' }, 'auditor')).statusCode).toBe(403);
    expect((await post(`/api/payments/${randomUUID()}/refund`, { amount: '1.00', reason: 'x' })).statusCode).toBe(404);
    expect(await refundEvents(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ amount_paid: '30.00' });
  });

  it('refunds a card payment through the test provider once, and reopens a paid invoice past its due date as overdue', async () => {
    const customerId = await renter();
    const invoice = await sentInvoice(customerId, '80.00', '2020-01-01');
    const provider = createTestProvider(platform.api.pool);
    const intent = await provider.createIntent({ amount: '80.00', invoiceId: invoice.id, customerId, customerEmail: 'rhea@example.com' });
    expect((await provider.confirmIntent(intent.id, goodCard, new Date())).status).toBe('succeeded');
    await settle(await recordIntentPayment(ctx(), platform.api.pool, provider, { paymentIntentId: intent.id }));
    const paymentId = (await platform.api.store.readStream(streams.invoice(invoice.id))).find((e) => e.type === 'payment_received')!.data.paymentId as string;
    expect((await invoiceRow(invoice.id)).status).toBe('paid');

    const key = { 'idempotency-key': `card-${randomUUID()}` };
    const answers = await Promise.all([1, 2].map(() => post(`/api/payments/${paymentId}/refund`, { amount: '25.00', reason: 'Overcharged' }, 'owner', key)));
    const ok = answers.filter((a) => a.statusCode === 201);
    expect(ok.length, answers.map((a) => a.body).join(' | ')).toBeGreaterThanOrEqual(1);
    const refund = RefundAnswer.parse(ok[0]!.json());
    expect(refund.providerRefundId).toMatch(/^re_test_/);
    expect(refund.invoiceStatus).toBe('overdue');
    const atProvider = await platform.api.pool.any(sql.type(z.object({ id: z.string(), amount: z.string(), idempotency_key: z.string() }))`
      SELECT id, amount::text, idempotency_key FROM test_payment_refunds WHERE payment_intent_id = ${intent.id}`);
    expect(atProvider).toEqual([{ id: refund.providerRefundId, amount: '25.00', idempotency_key: `staff-refund-${refund.refundId}` }]);
    expect(await refundEvents(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'overdue', amount_paid: '55.00' });
    const customer = (await get(`/api/customers/${customerId}`)).json();
    expect(customer.status).toBe('overdue');
    // The provider never refunds more in all than the charge.
    const over = await post(`/api/payments/${paymentId}/refund`, { amount: '55.01', reason: 'Too much' });
    expect(over.json()).toMatchObject({ field: 'amount' });
    expect(await refundEvents(invoice.id)).toHaveLength(1);
  });

  it('issues nothing when the provider fails (the refund stays requested); a retry, or a crash after the provider refunded, refunds and records once', async () => {
    const customerId = await renter();
    const invoice = await sentInvoice(customerId, '60.00', '2099-01-01');
    const provider = createTestProvider(platform.api.pool);
    const intent = await provider.createIntent({ amount: '60.00', invoiceId: invoice.id, customerId, customerEmail: 'rhea@example.com' });
    await provider.confirmIntent(intent.id, goodCard, new Date());
    await settle(await recordIntentPayment(ctx(), platform.api.pool, provider, { paymentIntentId: intent.id }));
    const paymentId = (await platform.api.store.readStream(streams.invoice(invoice.id))).find((e) => e.type === 'payment_received')!.data.paymentId as string;
    const outage = createTestProvider(platform.api.pool, {
      beforeRefund: () => {
        throw new Error('connection reset');
      },
    });
    const refundId = randomUUID();
    const request = { amount: '10.00', reason: 'Overcharged' };
    await expect(refundPayment(ctx(), platform.api.pool, outage, paymentId, request, refundId)).rejects.toThrow(/did not make the refund \(connection reset\)/);
    expect(await refundEvents(invoice.id)).toHaveLength(0);
    const first = await refundPayment(ctx(), platform.api.pool, provider, paymentId, request, refundId);
    const again = await refundPayment(ctx(), platform.api.pool, provider, paymentId, request, refundId);
    expect(again.providerRefundId).toBe(first.providerRefundId);

    // The provider refunded, then the process stopped before recording it: the retry records that refund.
    const crashed = randomUUID();
    const made = await provider.refund(intent.id, '5.00', staffRefundKeyOf(crashed), 'Overcharged');
    const healed = await settle(await refundPayment(ctx(), platform.api.pool, provider, paymentId, { amount: '5.00', reason: 'Overcharged' }, crashed));
    expect(healed.providerRefundId).toBe(made.id);
    const atProvider = await platform.api.pool.anyFirst(sql.type(z.object({ amount: z.string() }))`
      SELECT amount::text FROM test_payment_refunds WHERE payment_intent_id = ${intent.id} ORDER BY amount`);
    expect([...atProvider].sort((a, b) => Number(a) - Number(b))).toEqual(['5.00', '10.00']);
    expect((await refundEvents(invoice.id)).map((e) => e.data.amount)).toEqual(['10.00', '5.00']);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'sent', amount_paid: '45.00' });
  });

  it('moves out over HTTP returning the deposit, once however often it is sent; a choice that is none is 400 naming deposit', async () => {
    const customerId = await renter();
    const tag = randomUUID().slice(0, 8);
    const unit = await addUnit(ctx(), {
      facilityId: null,
      unitNumber: `R-${tag}`,
      building: 'R',
      size: '5x5',
      monthlyRate: '100.00',
      status: 'available',
      description: null,
    });
    if (unit.state.status === 'none') throw new Error('no unit');
    const today = new Date().toISOString().slice(0, 10);
    const leaseId = randomUUID();
    await settle(await startLease(ctx(), { customerId, unitId: unit.state.unitId, startDate: today, monthlyRate: '100.00', depositAmount: '40.00' }, leaseId));
    const moveIn = leaseInvoiceId(leaseId, today);
    const generated = (await platform.api.store.readStream(streams.invoice(moveIn))).find((e) => e.type === 'invoice_generated')!;
    await settle(await recordPayment(ctx(), moveIn, { amount: generated.data.amount as string, method: 'cash', stripePaymentIntentId: null }));

    const bad = await post(`/api/leases/${leaseId}/end`, { endDate: today, deposit: 'keep' }, 'manager');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'deposit' });
    expect((await platform.api.store.readStream(streams.lease(leaseId))).map((e) => e.type)).not.toContain('lease_ended');

    const body = { endDate: today, deposit: 'return', depositMethod: 'cash' };
    expect((await post(`/api/leases/${leaseId}/end`, body, 'clerk')).statusCode).toBe(403);
    expect((await platform.api.store.readStream(streams.lease(leaseId))).map((e) => e.type)).not.toContain('lease_ended');
    const ended = await post(`/api/leases/${leaseId}/end`, body, 'manager');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ id: leaseId, isActive: false, endDate: today });
    expect((await post(`/api/leases/${leaseId}/end`, body, 'manager')).statusCode).toBe(200);
    const accountMoney = (await platform.api.store.readStream(streams.account(customerId))).filter((e) => e.type !== 'account_invoice_listed');
    expect(accountMoney.map((e) => e.type)).toEqual(['account_credited', 'account_credit_refunded']);
    expect((await ledgerOf(customerId)).slice(-2).map((r) => [r.kind, r.amount, r.description])).toEqual([
      ['credit', '-40.00', 'Credit — Deposit returned at move-out'],
      ['refund', '40.00', 'Refund of credit — cash: Deposit returned at move-out'],
    ]);
  });

  it('hands back credit on the account, never more than it holds, as a refund on the statement', async () => {
    const customerId = await renter();
    await settle(await giveCredit(ctx(), customerId, '50.00', 'Goodwill'));
    const key = { 'idempotency-key': `credit-${randomUUID()}` };
    const body = { amount: '20.00', method: 'check', reference: '3301', reason: 'Renter asked for it back' };
    const refunded = await post(`/api/customers/${customerId}/credit-refunds`, body, 'manager', key);
    expect(refunded.statusCode, refunded.body).toBe(201);
    expect((await post(`/api/customers/${customerId}/credit-refunds`, body, 'manager', key)).json()).toEqual(refunded.json());
    const over = await post(`/api/customers/${customerId}/credit-refunds`, { ...body, amount: '30.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ field: 'amount' });
    expect((await post(`/api/customers/${customerId}/credit-refunds`, body, 'clerk')).statusCode).toBe(403);
    const credit = await platform.api.pool.oneFirst(
      sql.type(z.object({ c: z.string() }))`SELECT credit_balance::text AS c FROM customers WHERE id = ${customerId}`,
    );
    expect(credit).toBe('30.00');
    expect((await ledgerOf(customerId)).map((r) => [r.kind, r.amount, r.description])).toEqual([
      ['credit', '-50.00', 'Credit — Goodwill'],
      ['refund', '20.00', 'Refund of credit — check 3301: Renter asked for it back'],
    ]);
  });
});

// Stripe cannot be reached from here: the refund's request shape is checked on the SDK's own call.
describe('a staff refund through Stripe (offline)', () => {
  it("asks Stripe for the customer's refund of that amount, under the refund's idempotency key", async () => {
    const offline = new Stripe('sk_test_offline');
    const refunds = Object.getPrototypeOf(offline.refunds) as { create: (...args: unknown[]) => unknown };
    const create = vi.spyOn(refunds, 'create').mockImplementation(async () => ({ id: 're_offline_1', object: 'refund', status: 'succeeded' }));
    try {
      const provider = createStripeProvider({ secretKey: 'sk_test_offline', publishableKey: 'pk_test_offline', webhookSecret: undefined });
      expect(await provider.refund('pi_offline_1', '12.50', 'staff-refund-abc', 'Gate broken')).toEqual({ id: 're_offline_1' });
      expect(create).toHaveBeenCalledWith(
        { payment_intent: 'pi_offline_1', amount: 1250, reason: 'requested_by_customer', metadata: { reason: 'Gate broken' } },
        { idempotencyKey: 'staff-refund-abc' },
      );
    } finally {
      create.mockRestore();
    }
  });
});
