import { randomUUID } from 'node:crypto';
import { DeskReceipt } from '@storage/contracts/billing';
import { PortalPayment } from '@storage/contracts/payments';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice } from '@storage/domain/invoices/commands';
import { recordPortalPayment } from '@storage/domain/payments/desk';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readModelCaughtUp } from './read-model.ts';

// A renter's payments in their portal: each payment they made (a desk payment over several
// invoices is one, with the part kept as credit), newest first, how it was paid and what it paid,
// what staff gave back of it, and its receipt; never another renter's, and no staff route opens
// to a portal session.

const tag = () => randomUUID().slice(0, 8);
const Payments = z.array(PortalPayment);

describe('the renter’s payments and their receipts', () => {
  let platform: TestPlatform;
  let staff: string;
  const t = tag();
  const renter = (first: string, digits: string) => ({
    id: randomUUID(),
    first,
    email: `${first.toLowerCase()}-pay-${t}@example.com`,
    phone: `555-010-${digits}`,
  });
  /** Pays two invoices and more in cash at the desk, then one by check. */
  const ada = renter('Ada', '1212');
  /** Pays in cash, and staff give it all back. */
  const bob = renter('Bob', '3434');
  /** Has paid nothing. */
  const cy = renter('Cy', '5656');
  /** Pays more than her balance by card in the portal. */
  const dee = renter('Dee', '7878');
  const deeIntent = `pi_test_${t}`;
  const invoices = { march: randomUUID(), april: randomUUID(), lock: randomUUID(), bob: randomUUID(), dee: randomUUID() };
  const cookies: Record<string, string> = {};

  const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
    platform.api.app.inject({ method, url, ...(payload && { payload }), headers: { ...(cookie && { cookie }), 'idempotency-key': randomUUID() } });
  const payAtDesk = async (customerId: string, payload: object) => {
    const response = await inject('POST', `/api/customers/${customerId}/payments`, staff, payload);
    expect(response.statusCode, response.body).toBe(201);
    return DeskReceipt.parse(response.json());
  };
  const paymentsOf = async (cookie: string) => {
    const response = await inject('GET', '/api/customer/payments', cookie);
    expect(response.statusCode, response.body).toBe(200);
    return Payments.parse(response.json());
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    staff = await platform.signIn();
    const ctx = () => ({ store: platform.api.store, actor: { type: 'system' as const }, correlationId: randomUUID(), now: new Date() });
    const facilityId = randomUUID();
    await addFacility(ctx(), { name: `Payments ${t}`, address: '1 Receipt Rd', phone: null, managerName: null, timeZone: 'America/Chicago' }, facilityId);
    for (const r of [ada, bob, cy, dee]) {
      await addCustomer(
        ctx(),
        {
          firstName: r.first,
          lastName: `Payer${t}`,
          email: r.email,
          phone: r.phone,
          address: null,
          emergencyContact: null,
          emergencyPhone: null,
          status: 'active',
          facilityId,
        },
        r.id,
      );
    }
    const invoice = (id: string, customerId: string, invoiceNumber: string, amount: string, description: string, dueDate: string) =>
      generateInvoice(ctx(), { invoiceNumber, customerId, leaseId: null, amount, dueDate, status: 'sent', description }, id);
    await invoice(invoices.march, ada.id, `INV-M${t}`, '60.00', 'Rent Mar 1 – Mar 31, 2026', '2026-03-01');
    await invoice(invoices.april, ada.id, `INV-A${t}`, '40.00', 'Rent Apr 1 – Apr 30, 2026', '2026-04-01');
    await invoice(invoices.lock, ada.id, `INV-L${t}`, '25.00', 'Disc lock', '2026-04-02');
    await invoice(invoices.bob, bob.id, `INV-B${t}`, '50.00', 'Rent Mar 1 – Mar 31, 2026', '2026-03-01');
    await invoice(invoices.dee, dee.id, `INV-D${t}`, '30.00', 'Rent Mar 1 – Mar 31, 2026', '2026-03-01');
    await recordPortalPayment(ctx(), { paymentIntentId: deeIntent, customerId: dee.id, amount: '45.00' });

    await payAtDesk(ada.id, { amount: '120.00', method: 'cash', invoiceIds: [invoices.march, invoices.april] });
    await payAtDesk(ada.id, { amount: '5.00', method: 'check', reference: '1042', invoiceIds: [invoices.lock] });
    await payAtDesk(bob.id, { amount: '50.00', method: 'cash' });
    await readModelCaughtUp(platform);
    const bobPayment = await platform.api.pool.oneFirst(
      sql.type(z.object({ id: z.string() }))`SELECT id::text FROM payments WHERE invoice_id = ${invoices.bob} AND refund_of IS NULL`,
    );
    const refund = await inject('POST', `/api/payments/${bobPayment}/refund`, staff, { amount: '50.00', reason: 'Moved away before the month began' });
    expect(refund.statusCode, refund.body).toBe(201);
    await readModelCaughtUp(platform);

    for (const r of [ada, bob, cy, dee]) {
      const response = await platform.api.app.inject({
        method: 'POST',
        url: '/api/customer/verify',
        payload: { email: r.email, phoneLast4: r.phone.slice(-4) },
        remoteAddress: `10.8.0.${Object.keys(cookies).length + 1}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      cookies[r.first] = sessionCookie(response.headers['set-cookie']);
    }
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('lists each payment once, newest first, with its method, what it paid and what became credit', async () => {
    const payments = await paymentsOf(cookies.Ada!);
    expect(payments.map((p) => [p.amount, p.method, p.methodLabel, p.status, p.statusLabel])).toEqual([
      ['5.00', 'check', 'Check', 'paid', 'Paid'],
      ['120.00', 'cash', 'Cash', 'paid', 'Paid'],
    ]);
    const [check, cash] = payments as [PortalPayment, PortalPayment];
    expect(cash.applied).toEqual([
      { invoiceId: invoices.march, invoiceNumber: `INV-M${t}`, description: 'Rent Mar 1 – Mar 31, 2026', amount: '60.00' },
      { invoiceId: invoices.april, invoiceNumber: `INV-A${t}`, description: 'Rent Apr 1 – Apr 30, 2026', amount: '40.00' },
    ]);
    expect([cash.credited, cash.refunded]).toEqual(['20.00', '0.00']);
    expect(check.applied.map((a) => [a.invoiceNumber, a.amount])).toEqual([[`INV-L${t}`, '5.00']]);
    expect(cash.receiptUrl).toBe(`/api/customer/payments/${cash.id}/receipt.pdf`);
    expect(cash.paidDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('shows a payment staff gave back as refunded', async () => {
    expect((await paymentsOf(cookies.Bob!)).map((p) => [p.amount, p.refunded, p.status, p.statusLabel])).toEqual([['50.00', '50.00', 'refunded', 'Refunded']]);
  });

  it('lists a card payment made in the portal once, what no invoice took as credit, and gives its receipt by its id or its intent id', async () => {
    const payments = await paymentsOf(cookies.Dee!);
    expect(payments.map((p) => [p.amount, p.method, p.applied.map((a) => [a.invoiceNumber, a.amount]), p.credited, p.status])).toEqual([
      ['45.00', 'card', [[`INV-D${t}`, '30.00']], '15.00', 'paid'],
    ]);
    for (const url of [payments[0]!.receiptUrl, `/api/customer/payments/${deeIntent}/receipt.pdf`]) {
      const receipt = await inject('GET', url, cookies.Dee);
      expect(receipt.statusCode, url).toBe(200);
      expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await inject('GET', url, cookies.Ada)).statusCode, url).toBe(404);
    }
  });

  it('lists nothing for a renter who has paid nothing', async () => {
    expect(await paymentsOf(cookies.Cy!)).toEqual([]);
  });

  it('gives the receipt of a desk payment as a PDF, to its renter only', async () => {
    const [, cash] = (await paymentsOf(cookies.Ada!)) as [PortalPayment, PortalPayment];
    const own = await inject('GET', cash.receiptUrl, cookies.Ada);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.headers['content-disposition']).toBe(`attachment; filename="receipt-${cash.paidDate}-${cash.id}.pdf"`);
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const [refunded] = (await paymentsOf(cookies.Bob!)) as [PortalPayment];
    expect((await inject('GET', refunded.receiptUrl, cookies.Bob)).statusCode).toBe(200);

    // Another renter's payment is not found, as an unknown one is; no session is refused.
    const foreign = await inject('GET', cash.receiptUrl, cookies.Bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Payment not found' });
    expect((await inject('GET', refunded.receiptUrl, cookies.Ada)).statusCode).toBe(404);
    expect((await inject('GET', `/api/customer/payments/${randomUUID()}/receipt.pdf`, cookies.Ada)).statusCode).toBe(404);
    expect((await inject('GET', cash.receiptUrl)).statusCode).toBe(401);
    expect((await inject('GET', cash.receiptUrl, staff)).statusCode).toBe(401);
  });

  it('answers only a portal session, and a portal session reaches no staff route', async () => {
    expect((await inject('GET', '/api/customer/payments')).statusCode).toBe(401);
    expect((await inject('GET', '/api/customer/payments', staff)).statusCode).toBe(401);
    expect((await inject('GET', `/api/customer/payments?email=${encodeURIComponent(bob.email)}`, cookies.Ada)).statusCode).toBe(403);
    for (const url of ['/api/customers', `/api/customers/${bob.id}/ledger`, '/api/invoices', '/api/reports/payments-by-method']) {
      expect((await inject('GET', url, cookies.Ada)).statusCode, url).toBe(401);
    }
  });
});
