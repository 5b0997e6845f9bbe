import { randomUUID } from 'node:crypto';
import { DeskPaymentPlan, DeskReceipt } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The desk's money routes: who may take a payment (and see what it would pay first), give a
// credit, write off or void; bad input answers 400 naming the field and writes nothing; an
// Idempotency-Key makes a repeat pay nothing twice.

describe('desk payments, credits, write-offs and voids over HTTP', () => {
  let platform: TestPlatform;
  const cookies: Record<string, string> = {};
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const settle = async <T extends { position: Position | null }>(result: T): Promise<T> => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
    return result;
  };
  const post = (url: string, payload: unknown, role = 'owner', headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie: cookies[role]!, ...headers } });

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    for (const role of ['owner', 'manager', 'clerk', 'auditor'] as const) cookies[role] = await platform.signIn(role);
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function renterOwing(...amounts: string[]) {
    const tag = randomUUID().slice(0, 8);
    const customer = await settle(await addCustomer(ctx(), renterFields('Desk', 'Http', tag)));
    if (customer.state.status === 'none') throw new Error('no customer');
    const invoiceIds: string[] = [];
    for (const [i, amount] of amounts.entries()) {
      const made = await generateInvoice(ctx(), {
        invoiceNumber: `INV-H-${tag}-${i}`,
        customerId: customer.state.customerId,
        leaseId: null,
        amount,
        dueDate: `2026-0${i + 1}-01`,
        status: 'draft',
        description: null,
      });
      if (made.state.status === 'none') throw new Error('no invoice');
      await settle(await sendInvoice(ctx(), made.state.invoiceId));
      invoiceIds.push(made.state.invoiceId);
    }
    return { customerId: customer.state.customerId, invoiceIds };
  }

  it('lets a clerk take a check over two invoices, and a repeat with the same Idempotency-Key pays nothing twice', async () => {
    const { customerId, invoiceIds } = await renterOwing('60.00', '50.00');
    const body = { amount: '80.00', method: 'check', reference: '2201' };
    const key = { 'idempotency-key': `desk-${randomUUID()}` };
    const first = await post(`/api/customers/${customerId}/payments`, body, 'clerk', key);
    expect(first.statusCode).toBe(201);
    const receipt = DeskReceipt.parse(first.json());
    expect(receipt.applied.map((a) => [a.invoiceId, a.amount])).toEqual([
      [invoiceIds[0], '60.00'],
      [invoiceIds[1], '20.00'],
    ]);
    expect(receipt.credited).toBe('0.00');
    const again = await post(`/api/customers/${customerId}/payments`, body, 'clerk', key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const list = await platform.api.app.inject({
      method: 'GET',
      url: `/api/invoices?search=${encodeURIComponent(receipt.applied[1]!.invoiceNumber)}`,
      headers: { cookie: cookies.owner! },
    });
    expect(list.json()[0]).toMatchObject({ status: 'sent' });
  });

  it('refuses a bad amount or method with 400 naming the field, an unknown customer with 404, and auditors with 403', async () => {
    const { customerId } = await renterOwing('10.00');
    for (const [payload, field] of [
      [{ amount: '0.00', method: 'cash' }, 'amount'],
      [{ amount: '-5.00', method: 'cash' }, 'amount'],
      [{ amount: '5.00', method: 'bitcoin' }, 'method'],
      [{ amount: '5.00', method: 'cash', invoiceIds: [] }, 'invoiceIds'],
    ] as const) {
      const response = await post(`/api/customers/${customerId}/payments`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().field).toBe(field);
    }
    expect((await post(`/api/customers/${randomUUID()}/payments`, { amount: '5.00', method: 'cash' })).statusCode).toBe(404);
    expect((await post(`/api/customers/${customerId}/payments`, { amount: '5.00', method: 'cash' }, 'auditor')).statusCode).toBe(403);
    expect((await post(`/api/customers/${customerId}/credits`, { amount: '5.00', reason: 'Nice' }, 'clerk')).statusCode).toBe(403);
    expect((await post(`/api/customers/${customerId}/credits`, { amount: '5.00', reason: '' })).json().field).toBe('reason');
  });

  it('previews what a payment would pay, as taking it then pays it, and records nothing', async () => {
    const { customerId, invoiceIds } = await renterOwing('60.00', '50.00');
    const plan = async (amount: string, role = 'clerk') =>
      platform.api.app.inject({ method: 'GET', url: `/api/customers/${customerId}/payment-plan?amount=${amount}`, headers: { cookie: cookies[role]! } });
    const written = async () => (await platform.api.store.readStream(streams.account(customerId))).length;
    const before = await written();

    const part = await plan('80.00');
    expect(part.statusCode, part.body).toBe(200);
    expect(DeskPaymentPlan.parse(part.json())).toEqual({
      applied: [
        { invoiceId: invoiceIds[0], invoiceNumber: expect.stringMatching(/-0$/), amount: '60.00', openBalance: '60.00', paysInFull: true },
        { invoiceId: invoiceIds[1], invoiceNumber: expect.stringMatching(/-1$/), amount: '20.00', openBalance: '50.00', paysInFull: false },
      ],
      credited: '0.00',
    });
    expect((await plan('120.5')).json()).toMatchObject({ applied: [{ paysInFull: true }, { amount: '50.00', paysInFull: true }], credited: '10.50' });
    expect(await written()).toBe(before);

    const taken = DeskReceipt.parse((await post(`/api/customers/${customerId}/payments`, { amount: '80.00', method: 'cash' }, 'clerk')).json());
    expect(taken.applied.map((a) => [a.invoiceId, a.amount])).toEqual(
      part.json().applied.map((a: { invoiceId: string; amount: string }) => [a.invoiceId, a.amount]),
    );
    expect((await plan('40.00')).json()).toEqual({
      applied: [{ invoiceId: invoiceIds[1], invoiceNumber: expect.any(String), amount: '30.00', openBalance: '30.00', paysInFull: true }],
      credited: '10.00',
    });
  });

  it('refuses a preview of a bad amount with 400 naming it, an unknown customer with 404, and auditors with 403', async () => {
    const { customerId } = await renterOwing('10.00');
    const plan = (query: string, role = 'owner', id = customerId) =>
      platform.api.app.inject({ method: 'GET', url: `/api/customers/${id}/payment-plan${query}`, headers: { cookie: cookies[role]! } });
    for (const query of ['?amount=0.00', '?amount=-5.00', '?amount=12.345', '?amount=ten', '']) {
      const response = await plan(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe('amount');
    }
    expect((await plan('?amount=5.00', 'owner', randomUUID())).statusCode).toBe(404);
    expect((await plan('?amount=5.00', 'auditor')).statusCode).toBe(403);
    expect((await plan('?amount=5.00', 'manager')).statusCode).toBe(200);
  });

  it('gives a credit that pays the open invoice, writes off the rest, and voids only an unpaid invoice', async () => {
    const { customerId, invoiceIds } = await renterOwing('40.00', '15.00');
    const credited = await post(`/api/customers/${customerId}/credits`, { amount: '10.00', reason: 'Gate was down' }, 'manager');
    expect(credited.statusCode).toBe(201);
    const writtenOff = await post(`/api/invoices/${invoiceIds[0]}/write-off`, { reason: 'Renter left town' }, 'manager');
    expect(writtenOff.statusCode).toBe(200);
    expect(writtenOff.json()).toMatchObject({ id: invoiceIds[0], status: 'written_off' });
    expect((await post(`/api/invoices/${invoiceIds[0]}/void`, { reason: 'Typed twice' })).statusCode).toBe(409);
    const voided = await post(`/api/invoices/${invoiceIds[1]}/void`, { reason: 'Typed twice' });
    expect(voided.json()).toMatchObject({ status: 'cancelled' });
    expect((await post(`/api/invoices/${randomUUID()}/write-off`, { reason: 'x' })).statusCode).toBe(404);
  });
});
