import { randomUUID } from 'node:crypto';
import { bodyHashOf } from '@storage/api/http/idempotency';
import { DeskReceipt } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { listEarlierInvoices } from '@storage/domain/accounts/invoice-listing';
import { derivedId } from '@storage/domain/commands/derived-id';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, markCustomerOverdue, markInvoiceOverdue, sendInvoice } from '@storage/domain/invoices/commands';
import { recordDeskPayment } from '@storage/domain/payments/desk';
import type { EventStore } from '@storage/eventstore/port';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Money moves on the write side's streams: a desk payment, a credit and the renter's standing are
// decided from the invoices the renter's account lists, read on their own streams, never from the
// read model. So they work while the projector is down or behind, and the read model, once it runs
// again, shows each payment once and the renter in good standing.

describe('money decided on the streams', () => {
  let platform: TestPlatform;
  let clerk: string;
  let manager: string;
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}, cookie = clerk) =>
    platform.api.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie, ...headers } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    clerk = await platform.signIn('clerk');
    manager = await platform.signIn('manager');
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function invoice(customerId: string, tag: string, amount: string, dueDate: string) {
    const made = await generateInvoice(ctx(), {
      invoiceNumber: `INV-S-${tag}-${dueDate}`,
      customerId,
      leaseId: null,
      amount,
      dueDate,
      status: 'draft',
      description: null,
    });
    if (made.state.status === 'none') throw new Error('no invoice');
    await sendInvoice(ctx(), made.state.invoiceId);
    return made.state.invoiceId;
  }

  it('takes a desk payment and a credit with the projector stopped, paying an invoice the read model never saw, and the read model catches up once', async () => {
    const tag = randomUUID().slice(0, 8);
    const customer = await addCustomer(ctx(), renterFields('Stream', 'Payer', tag));
    if (customer.state.status === 'none') throw new Error('no customer');
    const { customerId } = customer.state;
    const overdue = await invoice(customerId, tag, '60.00', '2026-01-01');
    await markInvoiceOverdue(ctx(), overdue, '2026-01-20');
    await markCustomerOverdue(ctx(), customerId);
    const open = await invoice(customerId, tag, '50.00', '2026-02-01');
    expect(await platform.reactionsCaughtUp()).toBe(true);

    await platform.projector.stop();
    // Issued while the projector is down: only its own stream and the account know it.
    const unseen = await invoice(customerId, tag, '40.00', '2026-03-01');
    const key = { 'idempotency-key': `desk-${randomUUID()}` };
    const paid = await post(`/api/customers/${customerId}/payments`, { amount: '150.00', method: 'cash' }, key);
    expect(paid.statusCode, paid.body).toBe(201);
    const receipt = DeskReceipt.parse(paid.json());
    expect(receipt.applied.map((a) => [a.invoiceId, a.amount])).toEqual([
      [overdue, '60.00'],
      [open, '50.00'],
      [unseen, '40.00'],
    ]);
    expect(receipt.credited).toBe('0.00');
    // The clerk's retry of the same receipt answers the first and pays nothing twice.
    const again = await post(`/api/customers/${customerId}/payments`, { amount: '150.00', method: 'cash' }, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(DeskReceipt.parse(again.json())).toEqual(receipt);
    const credit = await post(`/api/customers/${customerId}/credits`, { amount: '25.00', reason: 'Gate broken for a week' }, {}, manager);
    expect(credit.statusCode, credit.body).toBe(201);
    const payments = (await platform.api.store.readStream(streams.invoice(unseen))).filter((e) => e.type === 'payment_received');
    expect(payments).toHaveLength(1);

    await platform.restartProjector();
    expect(await platform.reactionsCaughtUp()).toBe(true);
    const { pool, store } = platform.api;
    const invoices = await pool.any(sql.type(z.object({ id: z.string(), status: z.string(), amount_paid: z.string() }))`
      SELECT id::text, status, amount_paid::text FROM invoices WHERE customer_id = ${customerId} ORDER BY due_date`);
    expect(invoices).toEqual([
      { id: overdue, status: 'paid', amount_paid: '60.00' },
      { id: open, status: 'paid', amount_paid: '50.00' },
      { id: unseen, status: 'paid', amount_paid: '40.00' },
    ]);
    const renter = await pool.one(sql.type(z.object({ status: z.string(), credit_balance: z.string() }))`
      SELECT status, credit_balance::text FROM customers WHERE id = ${customerId}`);
    expect(renter).toEqual({ status: 'active', credit_balance: '25.00' });
    const ledger = await pool.oneFirst(sql.type(z.object({ balance: z.string() }))`
      SELECT coalesce(sum(amount), 0)::numeric(20, 2)::text AS balance FROM ledger_entries WHERE customer_id = ${customerId}`);
    expect(ledger).toBe('-25.00');
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  it('lists on their accounts the invoices of a history written before accounts listed them, once', async () => {
    const tag = randomUUID().slice(0, 8);
    const customer = await addCustomer(ctx(), renterFields('Early', 'Renter', tag));
    if (customer.state.status === 'none') throw new Error('no customer');
    const { customerId } = customer.state;
    // An invoice as an earlier release wrote it: its stream alone, no listing on the account.
    const invoiceId = randomUUID();
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 2,
      occurredAt: new Date().toISOString(),
    };
    const generated = {
      invoiceId,
      invoiceNumber: `INV-E-${tag}`,
      customerId,
      leaseId: null,
      amount: '70.00',
      dueDate: '2026-01-01',
      status: 'draft',
      description: null,
      lines: [{ kind: 'adjustment', description: 'Adjustment', amount: '70.00', periodStart: null, periodEnd: null }],
    };
    await platform.api.store.append(
      streams.invoice(invoiceId),
      [
        { id: randomUUID(), type: 'invoice_generated', data: generated, metadata },
        { id: randomUUID(), type: 'invoice_sent', data: { invoiceId }, metadata: { ...metadata, schemaVersion: 1 } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const { pool, store } = platform.api;
    // The platform's start listed the history it found then (and marked the step done): the upgrade
    // of an install is its first start on this release, so the step is made to run again here.
    await pool.query(sql.unsafe`DELETE FROM write_side_upgrades WHERE name = 'account-invoice-listing'`);
    expect(await listEarlierInvoices(pool, store)).toBe(1);
    expect(await listEarlierInvoices(pool, store)).toBe(0);
    const listed = (await store.readStream(streams.account(customerId))).filter((e) => e.type === 'account_invoice_listed').map((e) => e.data);
    expect(listed).toEqual([{ customerId, invoiceId }]);

    const paid = await post(`/api/customers/${customerId}/payments`, { amount: '70.00', method: 'check', reference: '101' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(DeskReceipt.parse(paid.json())).toMatchObject({ applied: [{ invoiceId, amount: '70.00' }], credited: '0.00' });
  });

  it('finishes a desk receipt whose request died between its plan and its payments, and the clerk retrying with the same key gets it at once, paid once', async () => {
    const tag = randomUUID().slice(0, 8);
    const customer = await addCustomer(ctx(), renterFields('Crash', 'Desk', tag));
    if (customer.state.status === 'none') throw new Error('no customer');
    const { customerId } = customer.state;
    const first = await invoice(customerId, tag, '60.00', '2026-01-01');
    const second = await invoice(customerId, tag, '50.00', '2026-02-01');
    const key = `desk-${randomUUID()}`;
    const receiptId = derivedId('desk-receipt', customerId, key);
    const staffId = await platform.api.pool.oneFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM staff WHERE role = 'clerk' ORDER BY created_at DESC LIMIT 1`);
    // The request as a killed process leaves it: its key claimed with no answer, and its plan on the
    // account with no invoice paid (the process died at its first invoice append).
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO idempotency_keys (scope, key, method, path, body_hash, claim_token)
      VALUES (${`staff:${staffId}`}, ${key}, 'POST', ${`/api/customers/${customerId}/payments`}, ${bodyHashOf({ amount: '110.00', method: 'cash' })}, ${randomUUID()})`);
    const store = platform.api.store;
    const dying: EventStore = Object.create(store, {
      append: {
        value: (stream: string, events: Parameters<EventStore['append']>[1], options: Parameters<EventStore['append']>[2]) =>
          stream.startsWith('invoice-') ? Promise.reject(new Error('the process was killed')) : store.append(stream, events, options),
      },
    });
    await expect(recordDeskPayment({ ...ctx(), store: dying }, { customerId, amount: '110.00', method: 'cash', reference: null }, receiptId)).rejects.toThrow(
      'the process was killed',
    );
    // The recovery finishes the plan as soon as the projector sees it: both invoices paid, nothing credited.
    expect(await platform.reactionsCaughtUp()).toBe(true);
    const paidOnce = async () =>
      platform.api.pool.any(sql.type(z.object({ id: z.string(), status: z.string(), amount_paid: z.string() }))`
        SELECT id::text, status, amount_paid::text FROM invoices WHERE customer_id = ${customerId} ORDER BY due_date`);
    expect(await paidOnce()).toEqual([
      { id: first, status: 'paid', amount_paid: '60.00' },
      { id: second, status: 'paid', amount_paid: '50.00' },
    ]);
    // The clerk's retry of the same receipt (the console keeps the key until it succeeds): no 409 for
    // the dead request's claim, the same receipt back, nothing paid twice.
    const retry = await post(`/api/customers/${customerId}/payments`, { amount: '110.00', method: 'cash' }, { 'idempotency-key': key });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(DeskReceipt.parse(retry.json())).toMatchObject({ receiptId, credited: '0.00', applied: [{ invoiceId: first }, { invoiceId: second }] });
    // The dead request's claim is the one that now holds the answer (the retry took it over).
    const kept = await platform.api.pool.oneFirst(sql.type(z.object({ status_code: z.number().nullable() }))`
      SELECT status_code FROM idempotency_keys WHERE scope = ${`staff:${staffId}`} AND key = ${key}`);
    expect(kept).toBe(201);
    expect(await platform.reactionsCaughtUp()).toBe(true);
    expect(await paidOnce()).toEqual([
      { id: first, status: 'paid', amount_paid: '60.00' },
      { id: second, status: 'paid', amount_paid: '50.00' },
    ]);
    const credit = await platform.api.pool.oneFirst(sql.type(z.object({ credit: z.string() }))`
      SELECT credit_balance::text AS credit FROM customers WHERE id = ${customerId}`);
    expect(credit).toBe('0.00');
  });
});
