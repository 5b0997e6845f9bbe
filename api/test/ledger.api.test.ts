import { randomUUID } from 'node:crypto';
import { Ledger } from '@storage/contracts/ledger';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { addInvoiceLine, cancelInvoice, generateInvoice, recordPayment, recordRefund, sendInvoice } from '@storage/domain/invoices/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelCaughtUp } from './read-model.ts';

// Each renter's ledger, from a history written on chosen days: charges when an invoice is sent,
// a late fee, a payment, a void, a draft that owes nothing yet and a card charge given back that
// never counted. Entries are dated in the facility's zone; the running balance is SQL's.

const tag = () => randomUUID().slice(0, 8);

describe('the ledger and statement API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const get = (url: string, as = cookie) => platform.api.app.inject({ method: 'GET', url, headers: { cookie: as } });

  const t = tag();
  const ada = { id: randomUUID(), email: `ledger-${t}@example.com`, phone: '555-010-4321' };
  const other = { id: randomUUID(), email: `ledger-other-${t}@example.com`, phone: '555-010-9876' };
  const numbers = { rent: `INV-R${t}`, voided: `INV-V${t}`, draft: `INV-D${t}`, otherRent: `INV-O${t}` };

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    const store = platform.api.store;
    const at = (iso: string) => ({ store, actor: { type: 'system' as const }, correlationId: randomUUID(), now: new Date(iso) });

    // A Pacific facility: 05:00 UTC on Mar 1 is still Feb 28 there.
    const facilityId = randomUUID();
    await addFacility(
      at('2026-01-01T12:00:00Z'),
      { name: `Ledger ${t}`, address: '1 Ledger Way', phone: null, managerName: null, timeZone: 'America/Los_Angeles' },
      facilityId,
    );
    const contact = {
      phone: null,
      address: '12 Analytical Row, Springfield',
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active' as const,
      facilityId,
    };
    await addCustomer(at('2026-01-01T12:00:00Z'), { ...contact, firstName: 'Ada', lastName: `Ledger${t}`, email: ada.email, phone: ada.phone }, ada.id);
    await addCustomer(at('2026-01-01T12:00:00Z'), { ...contact, firstName: 'Other', lastName: `Ledger${t}`, email: other.email, phone: other.phone }, other.id);

    const invoice = (invoiceNumber: string, customerId: string, amount: string, description: string, status: 'draft' | 'sent' = 'draft') => ({
      invoiceNumber,
      customerId,
      leaseId: null,
      amount,
      dueDate: '2026-03-01',
      status,
      description,
    });
    const rent = randomUUID();
    const voided = randomUUID();
    const draft = randomUUID();
    await generateInvoice(at('2026-02-20T18:00:00Z'), invoice(numbers.rent, ada.id, '100.00', 'Rent Mar 1 – Mar 31, 2026'), rent);
    await sendInvoice(at('2026-03-01T05:00:00Z'), rent); // Feb 28 in Los Angeles
    await addInvoiceLine(at('2026-03-11T18:00:00Z'), rent, { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null });
    await generateInvoice(at('2026-03-12T18:00:00Z'), invoice(numbers.voided, ada.id, '40.00', 'Lock', 'sent'), voided);
    await cancelInvoice(at('2026-03-14T18:00:00Z'), voided);
    await generateInvoice(at('2026-03-15T18:00:00Z'), invoice(numbers.draft, ada.id, '70.00', 'Not sent yet'), draft);
    await recordPayment(at('2026-03-20T18:00:00Z'), rent, { amount: '125.00', method: 'cash', stripePaymentIntentId: null });
    // A card charge the paid invoice could not take, given straight back: never counted.
    await recordRefund(at('2026-03-21T18:00:00Z'), rent, {
      amount: '125.00',
      stripePaymentIntentId: `pi_${t}`,
      refundId: `re_${t}`,
      reason: 'invoice_already_paid',
    });
    await generateInvoice(at('2026-03-22T18:00:00Z'), invoice(numbers.otherRent, other.id, '999.00', 'Rent', 'sent'), randomUUID());
    await readModelCaughtUp(platform);
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('lists charges, the late fee, the void and the payment in order, with the running balance', async () => {
    const response = await get(`/api/customers/${ada.id}/ledger?asOf=2026-12-31`);
    expect(response.statusCode).toBe(200);
    const ledger = Ledger.parse(response.json());
    expect(ledger.customer).toMatchObject({ id: ada.id, firstName: 'Ada', address: '12 Analytical Row, Springfield' });
    expect(ledger.asOf).toBe('2026-12-31');
    expect(ledger.entries.map(({ date, kind, invoiceNumber, amount, balance }) => ({ date, kind, invoiceNumber, amount, balance }))).toEqual([
      { date: '2026-02-28', kind: 'charge', invoiceNumber: numbers.rent, amount: '100.00', balance: '100.00' },
      { date: '2026-03-11', kind: 'late_fee', invoiceNumber: numbers.rent, amount: '25.00', balance: '125.00' },
      { date: '2026-03-12', kind: 'charge', invoiceNumber: numbers.voided, amount: '40.00', balance: '165.00' },
      { date: '2026-03-14', kind: 'void', invoiceNumber: numbers.voided, amount: '-40.00', balance: '125.00' },
      { date: '2026-03-20', kind: 'payment', invoiceNumber: numbers.rent, amount: '-125.00', balance: '0.00' },
    ]);
    expect(ledger.entries[0]!.description).toBe(`Invoice ${numbers.rent} — Rent Mar 1 – Mar 31, 2026`);
    expect(ledger.entries[4]!.description).toBe(`Payment — cash, invoice ${numbers.rent}`);
    expect(ledger.balance).toBe('0.00');
    expect(ledger.openingBalance).toBe('0.00');
  });

  it('cuts the ledger at asOf, and sums what comes before from into the opening balance', async () => {
    const before = Ledger.parse((await get(`/api/customers/${ada.id}/ledger?asOf=2026-03-12`)).json());
    expect(before.entries.map((e) => e.kind)).toEqual(['charge', 'late_fee', 'charge']);
    expect(before.balance).toBe('165.00');
    const nothing = Ledger.parse((await get(`/api/customers/${ada.id}/ledger?asOf=2026-02-27`)).json());
    expect(nothing).toMatchObject({ entries: [], balance: '0.00' });
    const window = Ledger.parse((await get(`/api/customers/${ada.id}/ledger?from=2026-03-12&asOf=2026-03-14`)).json());
    expect(window.openingBalance).toBe('125.00');
    expect(window.entries.map((e) => [e.kind, e.balance])).toEqual([
      ['charge', '165.00'],
      ['void', '125.00'],
    ]);
    expect(window.balance).toBe('125.00');
  });

  it('answers 400 naming asOf for a date that is not one, 404 for an unknown customer', async () => {
    const bad = await get(`/api/customers/${ada.id}/ledger?asOf=2026-13-45`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('asOf');
    // A well-formed date of year 0, which PostgreSQL cannot hold (it was a 500).
    for (const query of ['asOf=0000-01-01', 'from=0000-06-30']) {
      const yearZero = await get(`/api/customers/${ada.id}/ledger?${query}`);
      expect(yearZero.statusCode, query).toBe(400);
      expect(JSON.stringify(yearZero.json()), query).toContain(query.split('=')[0]);
    }
    expect((await get(`/api/customers/${randomUUID()}/ledger`)).statusCode).toBe(404);
    expect((await get(`/api/customers/${randomUUID()}/statement.pdf`)).statusCode).toBe(404);
  });

  it('lets every staff role read it, auditors too, and nobody signed out', async () => {
    for (const role of ['manager', 'clerk', 'auditor'] as const) {
      const as = await platform.signIn(role);
      expect((await get(`/api/customers/${ada.id}/ledger`, as)).statusCode, role).toBe(200);
      expect((await get(`/api/customers/${ada.id}/statement.pdf`, as)).statusCode, role).toBe(200);
    }
    expect((await get(`/api/customers/${ada.id}/ledger`, '')).statusCode).toBe(401);
    expect((await get(`/api/customers/${ada.id}/statement.pdf`, '')).statusCode).toBe(401);
  });

  it('writes the statement as a PDF to download', async () => {
    const response = await get(`/api/customers/${ada.id}/statement.pdf?asOf=2026-03-31`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(response.headers['content-disposition']).toContain(`statement-Ledger${t}-2026-03-31.pdf`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("shows the renter their own ledger and statement in the portal, and no one else's", async () => {
    const verify = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email: ada.email, phoneLast4: '4321' } });
    expect(verify.statusCode).toBe(200);
    const renter = String(verify.headers['set-cookie']).split(';')[0]!;
    const own = Ledger.parse((await get('/api/customer/ledger', renter)).json());
    expect(own.customer.id).toBe(ada.id);
    expect(own.entries.map((e) => e.invoiceNumber)).not.toContain(numbers.otherRent);
    expect(own.entries).toHaveLength(5);
    const pdf = await get('/api/customer/statement.pdf', renter);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(`/api/customer/ledger?email=${encodeURIComponent(other.email)}`, renter)).statusCode).toBe(403);
    // A renter's session is not a staff one.
    expect((await get(`/api/customers/${other.id}/ledger`, renter)).statusCode).toBe(401);
    expect((await get('/api/customer/ledger', '')).statusCode).toBe(401);
  });
});
