import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { reconcilePayments } from '@storage/domain/payments/reconcile';
import { recordIntentPayment } from '@storage/domain/payments/record';
import { refundPayment } from '@storage/domain/payments/refunds';
import type { Position } from '@storage/eventstore/port';
import { type PaymentProvider, staffRefundKeyOf } from '@storage/platform/payments/provider';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A card refund is never lost between the provider and our records: it is requested first (held
// against the payment), then made at the provider, then issued; a crash in between is finished by
// a repeat of the request or by the payment reconciliation, once, under the same idempotency key.

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: `12/${nextYear}`, cvc: '123' };
/** Past the reconciliation's one-minute grace for pending refunds. */
const later = () => new Date(Date.now() + 2 * 60_000);

describe('pending card refunds', () => {
  let platform: TestPlatform;
  let provider: ReturnType<typeof createTestProvider>;
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const settle = async <T extends { position: Position | null }>(result: T): Promise<T> => {
    if (result.position) expect(await platform.api.afterAppend(result.position, 10_000)).toBe(true);
    return result;
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    provider = createTestProvider(platform.api.pool);
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** A provider that makes the refund and then "crashes" before the caller hears of it. */
  const crashingAfterRefund = (inner: PaymentProvider): PaymentProvider => ({
    ...inner,
    async refund(...args: Parameters<PaymentProvider['refund']>) {
      await inner.refund(...args);
      throw new Error('process stopped after the provider refunded');
    },
  });

  async function cardPayment(amount: string) {
    const tag = randomUUID().slice(0, 8);
    const customer = await settle(await addCustomer(ctx(), renterFields('Penny', 'Pending', tag)));
    if (customer.state.status === 'none') throw new Error('no customer');
    const customerId = customer.state.customerId;
    const made = await generateInvoice(ctx(), {
      invoiceNumber: `INV-P-${tag}`,
      customerId,
      leaseId: null,
      amount,
      dueDate: '2099-01-01',
      status: 'draft',
      description: 'Rent',
    });
    if (made.state.status === 'none') throw new Error('no invoice');
    const invoiceId = made.state.invoiceId;
    await settle(await sendInvoice(ctx(), invoiceId));
    const intent = await provider.createIntent({ amount, invoiceId, customerId, customerEmail: 'penny@example.com' });
    expect((await provider.confirmIntent(intent.id, goodCard, new Date())).status).toBe('succeeded');
    await settle(await recordIntentPayment(ctx(), platform.api.pool, provider, { paymentIntentId: intent.id }));
    const paymentId = (await platform.api.store.readStream(streams.invoice(invoiceId))).find((e) => e.type === 'payment_received')!.data.paymentId as string;
    return { customerId, invoiceId, intentId: intent.id, paymentId };
  }

  const eventsOf = async (invoiceId: string, type: string) => (await platform.api.store.readStream(streams.invoice(invoiceId))).filter((e) => e.type === type);
  const atProvider = (intentId: string) =>
    platform.api.pool.any(sql.type(z.object({ id: z.string(), amount: z.string(), idempotency_key: z.string() }))`
      SELECT id, amount::text, idempotency_key FROM test_payment_refunds WHERE payment_intent_id = ${intentId} ORDER BY created_at`);
  const refundRow = (refundId: string) =>
    platform.api.pool.maybeOne(sql.type(z.object({ status: z.string(), amount: z.string(), refund_of: z.string() }))`
      SELECT status, amount::text, refund_of::text FROM payments WHERE id = ${refundId}`);
  const invoiceRow = (id: string) =>
    platform.api.pool.one(sql.type(z.object({ status: z.string(), amount_paid: z.string() }))`SELECT status, amount_paid::text FROM invoices WHERE id = ${id}`);
  const ledgerRefunds = (customerId: string) =>
    platform.api.pool.anyFirst(sql.type(z.object({ amount: z.string() }))`
      SELECT amount::text FROM ledger_entries WHERE customer_id = ${customerId} AND kind = 'refund' ORDER BY position`);
  const attempt = (refundId: string) =>
    platform.api.pool.maybeOne(sql.type(z.object({ attempts: z.number(), last_error: z.string().nullable() }))`
      SELECT attempts, last_error FROM refund_attempts WHERE refund_id = ${refundId}`);

  it('a crash after the provider refunded leaves the refund pending; the reconciliation records it once, under the same key', async () => {
    const { customerId, invoiceId, intentId, paymentId } = await cardPayment('70.00');
    const refundId = randomUUID();
    await expect(
      refundPayment(ctx(), platform.api.pool, crashingAfterRefund(provider), paymentId, { amount: '30.00', reason: 'Gate broken' }, refundId),
    ).rejects.toThrow(/The refund is pending/);
    // The provider gave the money back; our records hold the request, not (yet) the refund.
    expect(await atProvider(intentId)).toEqual([expect.objectContaining({ amount: '30.00', idempotency_key: staffRefundKeyOf(refundId) })]);
    const requested = await eventsOf(invoiceId, 'payment_refund_requested');
    expect(requested.map((e) => e.data)).toEqual([expect.objectContaining({ refundId, paymentId, amount: '30.00', reason: 'Gate broken', method: 'card' })]);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(0);
    const run0 = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    // Within the grace minute the request may still be finishing itself: left alone.
    expect(run0.refunds.issued).toBe(0);
    await waitFor(async () => (await refundRow(refundId))?.status === 'pending');
    expect(await refundRow(refundId)).toEqual({ status: 'pending', amount: '30.00', refund_of: paymentId });
    // The ledger shows the refund when it is issued, not when it is requested.
    expect(await ledgerRefunds(customerId)).toEqual([]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: 'paid', amount_paid: '70.00' });
    // The pending row is the projection's like any other: verify agrees, and a rebuild writes it again.
    const { pool, store } = platform.api;
    const payments = await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`)).toEqual(payments);

    const run = await settle(await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, later(), 0));
    expect(run.refunds).toMatchObject({ issued: 1, failures: [] });
    const issued = await eventsOf(invoiceId, 'payment_refund_issued');
    expect(issued.map((e) => e.data)).toEqual([expect.objectContaining({ refundId, amount: '30.00', providerRefundId: (await atProvider(intentId))[0]!.id })]);
    expect(await atProvider(intentId)).toHaveLength(1);
    expect(await refundRow(refundId)).toMatchObject({ status: 'refunded' });
    expect(await ledgerRefunds(customerId)).toEqual(['30.00']);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: 'sent', amount_paid: '40.00' });
    const issuedRows = await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM payments ORDER BY id`)).toEqual(issuedRows);

    // A second run (or replica) finds nothing pending and records nothing more.
    const again = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, later(), 0);
    expect(again.refunds.issued).toBe(0);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(1);
    expect(await atProvider(intentId)).toHaveLength(1);
  });

  it('a repeat of the request finishes a requested refund as it was requested', async () => {
    const { invoiceId, intentId, paymentId } = await cardPayment('50.00');
    const refundId = randomUUID();
    const request = { amount: '20.00', reason: 'Moved out early' };
    await expect(refundPayment(ctx(), platform.api.pool, crashingAfterRefund(provider), paymentId, request, refundId)).rejects.toThrow(/pending/);
    const done = await settle(await refundPayment(ctx(), platform.api.pool, provider, paymentId, request, refundId));
    expect(done).toMatchObject({ refundId, amount: '20.00', providerRefundId: (await atProvider(intentId))[0]!.id });
    expect(await atProvider(intentId)).toHaveLength(1);
    expect(await eventsOf(invoiceId, 'payment_refund_requested')).toHaveLength(1);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(1);
    // And a third time: the refund as recorded, nothing new.
    const third = await refundPayment(ctx(), platform.api.pool, provider, paymentId, request, refundId);
    expect(third.providerRefundId).toBe(done.providerRefundId);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(1);
  });

  it('a requested refund holds its amount: two different refunds over what is left cannot both be requested', async () => {
    const { invoiceId, intentId, paymentId } = await cardPayment('60.00');
    // One refund stuck at the provider (an outage): it stays pending and keeps its 40.00.
    const outage = createTestProvider(platform.api.pool, {
      beforeRefund: () => {
        throw new Error('connection reset');
      },
    });
    const stuck = randomUUID();
    await expect(refundPayment(ctx(), platform.api.pool, outage, paymentId, { amount: '40.00', reason: 'Overcharged' }, stuck)).rejects.toThrow(
      /did not make the refund \(connection reset\)\. The refund is pending/,
    );
    await expect(refundPayment(ctx(), platform.api.pool, provider, paymentId, { amount: '40.00', reason: 'Again' }, randomUUID())).rejects.toMatchObject({
      field: 'amount',
      message: expect.stringMatching(/at most 20\.00/),
    });
    expect(await atProvider(intentId)).toEqual([]);

    // Two different refunds racing for the remaining 20.00: one is requested, the other refused.
    const results = await Promise.allSettled(
      ['15.00', '15.00'].map((amount) => refundPayment(ctx(), platform.api.pool, provider, paymentId, { amount, reason: 'Race' }, randomUUID())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ field: 'amount' });
    expect((await eventsOf(invoiceId, 'payment_refund_requested')).map((e) => e.data.amount)).toEqual(['40.00', '15.00']);
    expect((await atProvider(intentId)).map((r) => r.amount)).toEqual(['15.00']);

    // The provider refuses the stuck one at the next run: it stays pending with the reason, and is retried.
    const refusing = createTestProvider(platform.api.pool, {
      beforeRefund: () => {
        throw new Error('card network unavailable');
      },
    });
    await waitFor(async () => (await refundRow(stuck))?.status === 'pending');
    const refusedRun = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider: refusing }, later(), 0);
    expect(refusedRun.refunds.failures).toEqual([{ refundId: stuck, error: expect.stringMatching(/card network unavailable/) }]);
    expect(await attempt(stuck)).toEqual({ attempts: 1, last_error: expect.stringMatching(/card network unavailable/) });
    expect(await refundRow(stuck)).toMatchObject({ status: 'pending' });
    const retried = await settle(await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, later(), 0));
    expect(retried.refunds).toMatchObject({ issued: 1, failures: [] });
    expect(await attempt(stuck)).toEqual({ attempts: 2, last_error: null });
    expect(await refundRow(stuck)).toMatchObject({ status: 'refunded' });
    expect((await atProvider(intentId)).map((r) => r.amount).sort()).toEqual(['15.00', '40.00']);
    expect(await invoiceRow(invoiceId)).toMatchObject({ amount_paid: '5.00' });
  });

  it('over HTTP, a refund the provider refused is answered 409 and stays pending; a repeat with the same Idempotency-Key finishes it', async () => {
    const cookie = await platform.signIn('owner');
    const { customerId, invoiceId, intentId, paymentId } = await cardPayment('60.00');
    // Someone refunded the whole charge at the provider directly: it refuses any more.
    await provider.refund(intentId, '60.00', `outside-${randomUUID()}`, 'Outside');
    const send = () =>
      platform.api.app.inject({
        method: 'POST',
        url: `/api/payments/${paymentId}/refund`,
        payload: { amount: '10.00', reason: 'Gate broken' },
        headers: { cookie, 'idempotency-key': `pending-${intentId}` },
      });
    const refused = await send();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/did not make the refund \(Cannot refund 10\.00 of 60\.00\)\. The refund is pending/);
    expect(await eventsOf(invoiceId, 'payment_refund_requested')).toHaveLength(1);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(0);
    // The provider's side is put right (the outside refund undone); the same request again finishes the refund.
    await platform.api.pool.query(sql.unsafe`DELETE FROM test_payment_refunds WHERE payment_intent_id = ${intentId} AND idempotency_key LIKE 'outside-%'`);
    const finished = await send();
    expect(finished.statusCode, finished.body).toBe(201);
    expect(finished.headers['idempotent-replayed']).toBeUndefined();
    expect(finished.json()).toMatchObject({ amount: '10.00', providerRefundId: expect.stringMatching(/^re_test_/) });
    expect(await eventsOf(invoiceId, 'payment_refund_requested')).toHaveLength(1);
    expect(await eventsOf(invoiceId, 'payment_refund_issued')).toHaveLength(1);
    // Now the answer is kept: a third send replays it.
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(finished.json());
    await waitFor(async () => (await ledgerRefunds(customerId)).length === 1);
  });

  async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the read model');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
