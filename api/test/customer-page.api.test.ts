import { randomUUID } from 'node:crypto';
import { Activity } from '@storage/contracts/activities';
import { CustomerAccount } from '@storage/contracts/customers';
import { InvoiceListItem } from '@storage/contracts/invoices';
import { afterPaymentRecorded, recordPayment } from '@storage/domain/invoices/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// What the customer page reads: one customer's account (balance, standing, payments), invoices
// and activity, each answered for that customer only.

const tag = () => randomUUID().slice(0, 8);

describe('the customer page API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });

  async function customer() {
    const t = tag();
    const response = await inject('POST', '/api/customers', { firstName: 'Page', lastName: `Renter${t}`, email: `page-${t}@example.com` });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; lastName: string };
  }

  async function invoice(customerId: string, amount: string, dueDate: string) {
    const response = await inject('POST', '/api/invoices', { invoiceNumber: `INV-${tag()}`, customerId, amount, dueDate });
    expect(response.statusCode).toBe(201);
    const created = response.json() as { id: string; invoiceNumber: string };
    expect((await inject('POST', `/api/invoices/${created.id}/send`)).statusCode).toBe(200);
    return created;
  }

  let ada: { id: string; lastName: string };
  let other: { id: string };
  let paid: { id: string; invoiceNumber: string };
  let open: { id: string; invoiceNumber: string };

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    [ada, other] = await Promise.all([customer(), customer()]);
    paid = await invoice(ada.id, '80.00', '2025-01-01');
    open = await invoice(ada.id, '120.50', '2999-01-01');
    await invoice(other.id, '999.00', '2999-01-01');
    const ctx = { store: platform.api.store, actor: { type: 'customer' as const, id: ada.id }, correlationId: randomUUID(), now: new Date() };
    const payment = await recordPayment(ctx, paid.id, { amount: '80.00', method: 'cash', stripePaymentIntentId: null });
    await afterPaymentRecorded(ctx, ada.id);
    expect(await platform.api.afterAppend(payment.position!, 15_000)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
  });

  it("answers the customer's open balance, standing and payments, named by invoice number", async () => {
    const response = await inject('GET', `/api/customers/${ada.id}/account`);
    expect(response.statusCode).toBe(200);
    const account = CustomerAccount.parse(response.json());
    expect(account).toMatchObject({ openBalance: '120.50', standing: 'CURRENT' });
    expect(account.payments).toHaveLength(1);
    expect(account.payments[0]).toMatchObject({ amount: '80.00', method: 'cash', invoiceId: paid.id, invoiceNumber: paid.invoiceNumber });
  });

  it("lists one customer's invoices and activity, and none of another's", async () => {
    const invoices = z.array(InvoiceListItem).parse((await inject('GET', `/api/invoices?customerId=${ada.id}`)).json());
    expect(invoices.map((i) => i.invoiceNumber).sort()).toEqual([open.invoiceNumber, paid.invoiceNumber].sort());
    const activities = z.array(Activity).parse((await inject('GET', `/api/activities?customerId=${ada.id}`)).json());
    expect(activities.length).toBeGreaterThan(0);
    expect(activities.every((a) => a.customer?.id === ada.id)).toBe(true);
    expect(activities.map((a) => a.type)).toContain('customer_added');
  });

  it('answers 404 for an unknown customer and 400 for a malformed id', async () => {
    const unknown = await inject('GET', `/api/customers/${randomUUID()}/account`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Customer not found');
    expect((await inject('GET', '/api/customers/not-an-id/account')).statusCode).toBe(400);
  });

  it('lets an auditor read it, and nobody signed out', async () => {
    const auditor = await platform.signIn('auditor');
    expect((await inject('GET', `/api/customers/${ada.id}/account`, undefined, auditor)).statusCode).toBe(200);
    expect((await inject('GET', `/api/customers/${ada.id}/account`, undefined, '')).statusCode).toBe(401);
  });
});
