import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { MerchandiseItem, MerchandiseSale } from '@storage/contracts/merchandise';
import { type CommandContext, handleCommand, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { decideMerchandise } from '@storage/domain/merchandise/businessLogic';
import { merchandiseSaleInvoiceId, sellMerchandiseAtDesk } from '@storage/domain/merchandise/commands';
import { merchandiseAggregate } from '@storage/domain/merchandise/item';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import type { Position } from '@storage/eventstore/port';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readModelCaughtUp } from './read-model.ts';

// The desk's merchandise: the catalogue kept by owners and managers (seen by every staff member,
// changed by no auditor), and a desk sale that takes stock (never below 0) and issues one invoice
// with a line per item and its tax, exactly once per Idempotency-Key.

describe('merchandise over HTTP', () => {
  let platform: TestPlatform;
  const cookies: Record<string, string> = {};
  let facilityId: string;
  let otherFacilityId: string;
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const settle = async <T extends { position: Position | null }>(result: T): Promise<T> => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
    return result;
  };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, role = 'owner', headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: cookies[role]!, ...headers } });
  const catalogue = async (facility = facilityId) => {
    await readModelCaughtUp(platform);
    return (await call('GET', `/api/facilities/${facility}/merchandise`)).json() as MerchandiseItem[];
  };
  const addItem = async (body: Record<string, unknown>, facility = facilityId) => {
    const response = await call('POST', `/api/facilities/${facility}/merchandise`, body);
    expect(response.statusCode, response.body).toBe(201);
    return MerchandiseItem.parse(response.json());
  };
  const renter = async (facility: string | null = facilityId) => {
    const made = await settle(await addCustomer(ctx(), renterFields('Merch', 'Buyer', randomUUID().slice(0, 8), { facilityId: facility })));
    if (made.state.status === 'none') throw new Error('no customer');
    return made.state.customerId;
  };
  const sell = (customerId: string, body: unknown, key: string = randomUUID(), role = 'clerk') =>
    call('POST', `/api/customers/${customerId}/merchandise-sales`, body, role, { 'Idempotency-Key': key });
  const invoiceOf = async (invoiceId: string) => {
    const { state } = await loadAggregate(platform.api.store, streams.invoice(invoiceId), invoiceAggregate);
    if (state.status !== 'current') throw new Error('no invoice');
    return state;
  };
  const stockOf = async (itemId: string) => (await catalogue()).find((i) => i.id === itemId)?.stock;

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    for (const role of ['owner', 'manager', 'clerk', 'auditor'] as const) cookies[role] = await platform.signIn(role);
    facilityId = randomUUID();
    otherFacilityId = randomUUID();
    const tag = randomUUID().slice(0, 6);
    await addFacility(ctx(), { name: `Merch North ${tag}`, address: '1 North Rd', phone: null, managerName: null }, facilityId);
    await addFacility(ctx(), { name: `Merch South ${tag}`, address: '2 South Rd', phone: null, managerName: null }, otherFacilityId);
    const salesTax = { rent: '0', adminFee: '0', lateFee: '0', merchandise: '8.875' };
    await settle(await updateBillingSettings(ctx(), { ...defaultBillingSettings, salesTax }, facilityId));
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('lets owners and managers keep the catalogue, clerks and auditors only see it', async () => {
    const lock = await addItem({ name: 'Disc lock', price: '24.99', taxable: true, stock: 5 });
    expect(lock).toMatchObject({ facilityId, name: 'Disc lock', price: '24.99', taxable: true, stock: 5, active: true });

    const changed = await call('PUT', `/api/merchandise/${lock.id}`, { name: 'Disc lock (brass)', price: '26.00', taxable: true, active: true }, 'manager');
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('POST', `/api/merchandise/${lock.id}/restock`, { quantity: 10 }, 'manager')).json()).toMatchObject({ stock: 15 });
    const counted = await call('POST', `/api/merchandise/${lock.id}/stock-count`, { stock: 14, reason: 'One damaged' });
    expect(counted.json()).toMatchObject({ stock: 14 });

    for (const role of ['clerk', 'auditor']) {
      for (const [method, url, body] of [
        ['POST', `/api/facilities/${facilityId}/merchandise`, { name: 'Tape', price: '4.00', taxable: true, stock: 1 }],
        ['PUT', `/api/merchandise/${lock.id}`, { name: 'Nope', price: '1.00', taxable: false, active: false }],
        ['POST', `/api/merchandise/${lock.id}/restock`, { quantity: 1 }],
        ['POST', `/api/merchandise/${lock.id}/stock-count`, { stock: 0, reason: 'x' }],
      ] as const) {
        expect((await call(method, url, body, role)).statusCode, `${role} ${method} ${url}`).toBe(403);
      }
      await readModelCaughtUp(platform);
      const seen = await call('GET', `/api/facilities/${facilityId}/merchandise`, undefined, role);
      expect(seen.statusCode).toBe(200);
      expect(seen.json()).toContainEqual({ ...lock, name: 'Disc lock (brass)', price: '26.00', stock: 14 });
    }
    expect(await stockOf(lock.id)).toBe(14);
    expect(await catalogue(otherFacilityId)).not.toContainEqual(expect.objectContaining({ id: lock.id }));
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const box = await addItem({ name: 'Small box', price: '2.50', taxable: true, stock: 3 });
    const customerId = await renter();
    for (const [body, field] of [
      [{ name: '', price: '1.00', taxable: true, stock: 1 }, 'name'],
      [{ name: 'Tape', price: '0.00', taxable: true, stock: 1 }, 'price'],
      [{ name: 'Tape', price: '1.005', taxable: true, stock: 1 }, 'price'],
      [{ name: 'Tape', price: '4.00', taxable: true, stock: -1 }, 'stock'],
      [{ name: 'Tape', price: '4.00', taxable: true, stock: 1.5 }, 'stock'],
    ] as const) {
      const response = await call('POST', `/api/facilities/${facilityId}/merchandise`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field).toBe(field);
    }
    expect((await call('POST', `/api/merchandise/${box.id}/stock-count`, { stock: 1, reason: ' ' })).json().field).toBe('reason');
    expect((await call('POST', `/api/merchandise/${box.id}/restock`, { quantity: 0 })).json().field).toBe('quantity');

    for (const body of [
      { lines: [] },
      { lines: [{ itemId: box.id, quantity: 0 }] },
      {
        lines: [
          { itemId: box.id, quantity: 1 },
          { itemId: box.id, quantity: 1 },
        ],
      },
      { lines: [{ itemId: randomUUID(), quantity: 1 }] },
    ]) {
      const response = await sell(customerId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field).toMatch(/^lines/);
    }
    const elsewhere = await addItem({ name: 'Other lock', price: '9.00', taxable: false, stock: 3 }, otherFacilityId);
    const refused = await sell(customerId, {
      lines: [
        { itemId: box.id, quantity: 1 },
        { itemId: elsewhere.id, quantity: 1 },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('Other lock is not sold at this facility');
    const noFacility = await sell(await renter(null), { lines: [{ itemId: box.id, quantity: 1 }] });
    expect(noFacility.statusCode).toBe(400);
    expect(noFacility.json().field).toBe('facilityId');

    expect((await catalogue()).filter((i) => i.name === 'Tape')).toEqual([]);
    expect(await stockOf(box.id)).toBe(3);
    await readModelCaughtUp(platform);
    expect((await call('GET', `/api/invoices?customerId=${customerId}`)).json()).toEqual([]);
  });

  it('sells at the desk: one invoice with a line per item and its tax, the stock taken, once per attempt', async () => {
    const lock = await addItem({ name: 'Cylinder lock', price: '24.99', taxable: true, stock: 4 });
    const fee = await addItem({ name: 'Lock cut fee', price: '35.00', taxable: false, stock: null });
    const customerId = await renter();
    const key = randomUUID();
    const body = {
      lines: [
        { itemId: lock.id, quantity: 2 },
        { itemId: fee.id, quantity: 1 },
      ],
    };
    const quoted = await call('GET', `/api/facilities/${facilityId}/merchandise-quote?lines=${lock.id}:2,${fee.id}:1`, undefined, 'clerk');
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect((await call('GET', `/api/facilities/${facilityId}/merchandise-quote?lines=${lock.id}:x`)).json().field).toBe('lines');
    const first = await sell(customerId, body, key);
    expect(first.statusCode, first.body).toBe(201);
    const sale = MerchandiseSale.parse(first.json());
    // 2 × 24.99 = 49.98, its tax at 8.875% = 4.44 (4.4357), the fee untaxed: 89.42.
    expect(sale).toMatchObject({ customerId, total: '89.42' });
    const invoice = await invoiceOf(sale.invoiceId);
    expect(invoice.fields).toMatchObject({ customerId, leaseId: null, amount: '89.42', status: 'sent', invoiceNumber: sale.invoiceNumber });
    expect(invoice.fields.lines).toEqual([
      { kind: 'merchandise', description: 'Cylinder lock × 2', amount: '49.98', periodStart: null, periodEnd: null },
      { kind: 'tax', description: 'Sales tax 8.875% on Cylinder lock × 2', amount: '4.44', periodStart: null, periodEnd: null },
      { kind: 'merchandise', description: 'Lock cut fee × 1', amount: '35.00', periodStart: null, periodEnd: null },
    ]);
    expect(await stockOf(lock.id)).toBe(2);
    expect(await stockOf(fee.id)).toBeNull();
    // The dialog's quote is the invoice the sale issued.
    expect(quoted.json()).toEqual({ lines: invoice.fields.lines, total: invoice.fields.amount });

    // The same attempt again (a retry after a lost answer, a double click): the same invoice, nothing sold twice.
    const again = await sell(customerId, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await stockOf(lock.id)).toBe(2);
    await readModelCaughtUp(platform);
    const listed = (await call('GET', `/api/invoices?customerId=${customerId}`)).json() as Array<{ id: string }>;
    expect(listed.map((i) => i.id)).toEqual([sale.invoiceId]);
  });

  it('finishes a sale on retry after a crash between the stock and the invoice, selling nothing twice', async () => {
    const tape = await addItem({ name: 'Packing tape', price: '4.00', taxable: true, stock: 5 });
    const customerId = await renter();
    const saleId = randomUUID();
    const invoiceId = merchandiseSaleInvoiceId(saleId);
    // The stock step as the first attempt wrote it, then nothing (the process died).
    await settle(
      await handleCommand(ctx(), streams.merchandise(tape.id), merchandiseAggregate, (state) =>
        decideMerchandise({ type: 'SellMerchandise', itemId: tape.id, facilityId, saleId, quantity: 3, customerId, invoiceId }, state),
      ),
    );
    const finished = await settle(await sellMerchandiseAtDesk(ctx(), { customerId, facilityId: null, lines: [{ itemId: tape.id, quantity: 3 }] }, saleId));
    expect(finished.invoiceId).toBe(invoiceId);
    expect((await invoiceOf(invoiceId)).fields.lines.map((l) => l.amount)).toEqual(['12.00', '1.07']);
    expect(await stockOf(tape.id)).toBe(2);
  });

  it('sells the last box to one of two desks at once: one 201, one 409 naming the item, the stock at 0', async () => {
    const box = await addItem({ name: 'Wardrobe box', price: '12.00', taxable: false, stock: 1 });
    const [a, b] = [await renter(), await renter()];
    const answers = await Promise.all([sell(a!, { lines: [{ itemId: box.id, quantity: 1 }] }), sell(b!, { lines: [{ itemId: box.id, quantity: 1 }] })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toBe('Not enough Wardrobe box in stock: none left');
    expect(await stockOf(box.id)).toBe(0);
  });

  it('puts back what a sale took when another of its items has too little left, and bills nothing', async () => {
    const lock = await addItem({ name: 'Padlock', price: '15.00', taxable: true, stock: 5 });
    const box = await addItem({ name: 'Large box', price: '5.00', taxable: true, stock: 1 });
    const customerId = await renter();
    const refused = await sell(customerId, {
      lines: [
        { itemId: lock.id, quantity: 2 },
        { itemId: box.id, quantity: 2 },
      ],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Not enough Large box in stock: only 1 left');
    expect(await stockOf(lock.id)).toBe(5);
    expect(await stockOf(box.id)).toBe(1);
    expect((await call('GET', `/api/invoices?customerId=${customerId}`)).json()).toEqual([]);
  });

  it('refuses a retired item, and lets no auditor sell', async () => {
    const item = await addItem({ name: 'Old lock', price: '10.00', taxable: false, stock: 2 });
    const customerId = await renter();
    expect((await sell(customerId, { lines: [{ itemId: item.id, quantity: 1 }] }, randomUUID(), 'auditor')).statusCode).toBe(403);
    await call('PUT', `/api/merchandise/${item.id}`, { name: 'Old lock', price: '10.00', taxable: false, active: false });
    const refused = await sell(customerId, { lines: [{ itemId: item.id, quantity: 1 }] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Old lock is no longer sold');
    expect(await stockOf(item.id)).toBe(2);
  });

  it('rebuilds the catalogue equal to the live one, after sales, undone sales, restocks and counts', async () => {
    const { pool, store } = platform.api;
    await readModelCaughtUp(platform);
    const before = await pool.any(sql.unsafe`SELECT * FROM merchandise_items ORDER BY id`);
    expect(before.length).toBeGreaterThan(5);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
    await rebuildReadModel(pool, store, readModelProjections);
    expect(await pool.any(sql.unsafe`SELECT * FROM merchandise_items ORDER BY id`)).toEqual(before);
    // The audit log files every event of an item under the facility that sells it.
    const filed = await pool.anyFirst(
      sql.type(
        z.object({ facility_id: z.string().nullable() }),
      )`SELECT DISTINCT a.facility_id::text AS facility_id FROM audit_log a WHERE a.stream_name LIKE 'merchandise-%'`,
    );
    expect([...filed].sort()).toEqual([facilityId, otherFacilityId].sort());
  });
});
