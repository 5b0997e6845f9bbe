import { randomUUID } from 'node:crypto';
import { type InvoiceLine, invoiceLineKindLabels } from '@storage/contracts/billing';
import { PortalContact, PortalInvoice } from '@storage/contracts/portal';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { addInvoiceLine, generateInvoice, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { addUnit } from '@storage/domain/units/commands';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readModelCaughtUp } from './read-model.ts';

// What the portal tells a renter about a bill and whom to call: each invoice's lines in the order
// billing wrote them (a late fee added after the invoice went out among them), only the renter's
// own invoices; and the facility of each lease they hold, with its own phone.

const tag = () => randomUUID().slice(0, 8);
const line = (kind: InvoiceLine['kind'], description: string, amount: string): InvoiceLine => ({
  kind,
  description,
  amount,
  periodStart: null,
  periodEnd: null,
});

describe('portal bills and contact', () => {
  let platform: TestPlatform;
  const t = tag();
  const business = { name: `Head Office ${t}`, phone: '(800) 555-0199', email: `office-${t}@example.com` };
  const tacoma = { id: randomUUID(), name: `Tacoma ${t}`, address: '1 Harbor Way, Tacoma', phone: '(253) 555-0101' };
  const portland = { id: randomUUID(), name: `Portland ${t}`, address: '2 River St, Portland', phone: '(503) 555-0100' };
  const quiet = { id: randomUUID(), name: `Quiet ${t}`, address: '3 Still Rd, Salem', phone: null };
  const renter = (first: string, digits: string, facilityId: string | null) => ({
    id: randomUUID(),
    firstName: first,
    email: `${first.toLowerCase()}-${t}@example.com`,
    phone: `555-010-${digits}`,
    facilityId,
  });
  /** Leases at Tacoma and Portland (two units there). */
  const ada = renter('Ada', '1111', tacoma.id);
  /** A lease at a facility with no phone. */
  const bob = renter('Bob', '2222', quiet.id);
  /** No lease, no facility. */
  const cy = renter('Cy', '3333', null);
  /** No lease yet; her record names Portland. */
  const dee = renter('Dee', '4444', portland.id);
  const units = { tacoma: `T${t}`, portland1: `P1${t}`, portland2: `P2${t}`, quiet: `Q${t}` };
  const numbers = { ada: `INV-A${t}`, adaOld: `INV-O${t}`, bob: `INV-B${t}` };

  const ctx = (iso: string): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date(iso) });
  const read = (url: string, cookie: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });
  let signIns = 0;
  async function signIn(who: { email: string; phone: string }) {
    const response = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customer/verify',
      payload: { email: who.email, phoneLast4: who.phone.slice(-4) },
      // Each sign-in from its own address: the gate's per-address limit is not under test here.
      remoteAddress: `10.9.0.${++signIns}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    const staff = await platform.signIn();
    const profile = await platform.api.app.inject({ method: 'PUT', url: '/api/settings/business-profile', payload: business, headers: { cookie: staff } });
    expect(profile.statusCode, profile.body).toBe(200);

    const day = '2026-03-01T18:00:00Z';
    for (const f of [tacoma, portland, quiet]) {
      await addFacility(ctx(day), { name: f.name, address: f.address, phone: f.phone, managerName: null, timeZone: 'America/Los_Angeles' }, f.id);
    }
    const unitAt = async (facilityId: string, unitNumber: string) => {
      const unitId = randomUUID();
      await addUnit(ctx(day), { facilityId, unitNumber, building: 'B', size: '10x10', monthlyRate: '100.00', status: 'available', description: null }, unitId);
      return unitId;
    };
    for (const r of [ada, bob, cy, dee]) {
      await addCustomer(
        ctx(day),
        {
          firstName: r.firstName,
          lastName: `Portal${t}`,
          email: r.email,
          phone: r.phone,
          address: null,
          emergencyContact: null,
          emergencyPhone: null,
          status: 'active',
          facilityId: r.facilityId,
        },
        r.id,
      );
    }
    const lease = async (customerId: string, unitId: string) =>
      startLease(ctx(day), { customerId, unitId, startDate: '2026-03-01', monthlyRate: '100.00', depositAmount: null }, randomUUID(), null, { bill: false });
    await lease(ada.id, await unitAt(tacoma.id, units.tacoma));
    await lease(ada.id, await unitAt(portland.id, units.portland1));
    await lease(ada.id, await unitAt(portland.id, units.portland2));
    await lease(bob.id, await unitAt(quiet.id, units.quiet));

    // Ada's April bill: rent, protection, a promotion's discount, a lock, tax; sent, then a late
    // fee on it, then a payment of part of it.
    const adaInvoice = randomUUID();
    const lines = [
      line('rent', 'Rent Apr 1 – Apr 30, 2026', '100.00'),
      line('protection', 'Protection plan $2,000', '12.00'),
      line('discount', 'First month half off', '-50.00'),
      line('merchandise', 'Disc lock', '15.00'),
      line('tax', 'Sales tax 8%', '1.20'),
    ];
    await generateInvoice(
      ctx('2026-03-20T18:00:00Z'),
      { invoiceNumber: numbers.ada, customerId: ada.id, leaseId: null, amount: '78.20', dueDate: '2026-04-01', status: 'draft', description: null, lines },
      adaInvoice,
    );
    await sendInvoice(ctx('2026-03-21T18:00:00Z'), adaInvoice);
    await addInvoiceLine(ctx('2026-04-11T18:00:00Z'), adaInvoice, line('late_fee', 'Late fee', '25.00'));
    await recordPayment(ctx('2026-04-12T18:00:00Z'), adaInvoice, { amount: '40.00', method: 'cash', stripePaymentIntentId: null });
    // An invoice written before lines: its one line is its description and amount.
    await generateInvoice(
      ctx('2026-03-02T18:00:00Z'),
      {
        invoiceNumber: numbers.adaOld,
        customerId: ada.id,
        leaseId: null,
        amount: '30.00',
        dueDate: '2026-03-05',
        status: 'sent',
        description: 'Key replacement',
      },
      randomUUID(),
    );
    await generateInvoice(
      ctx('2026-03-20T18:00:00Z'),
      { invoiceNumber: numbers.bob, customerId: bob.id, leaseId: null, amount: '999.00', dueDate: '2026-04-01', status: 'sent', description: 'Rent' },
      randomUUID(),
    );
    await readModelCaughtUp(platform);
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
  });

  it("answers the renter's invoices with their lines in billing's order, the late fee added after sending last, and no one else's", async () => {
    const response = await read('/api/customer/invoices', await signIn(ada));
    expect(response.statusCode, response.body).toBe(200);
    const invoices = z.array(PortalInvoice.strict()).parse(response.json());
    expect(invoices.map((i) => i.invoiceNumber)).toEqual([numbers.ada, numbers.adaOld]);
    expect(invoices.every((i) => i.customerId === ada.id)).toBe(true);

    const [april, old] = invoices as [PortalInvoice, PortalInvoice];
    expect(april.lines.map(({ kind, label, description, amount }) => [kind, label, description, amount])).toEqual([
      ['rent', 'Rent', 'Rent Apr 1 – Apr 30, 2026', '100.00'],
      ['protection', 'Protection plan', 'Protection plan $2,000', '12.00'],
      ['discount', 'Promotion', 'First month half off', '-50.00'],
      ['merchandise', 'Merchandise', 'Disc lock', '15.00'],
      ['tax', 'Sales tax', 'Sales tax 8%', '1.20'],
      ['late_fee', 'Late fee', 'Late fee', '25.00'],
    ]);
    expect(april).toMatchObject({ amount: '103.20', openBalance: '63.20', status: 'sent' });
    expect(old.lines).toEqual([
      { kind: 'adjustment', label: invoiceLineKindLabels.adjustment, description: 'Key replacement', amount: '30.00', periodStart: null, periodEnd: null },
    ]);

    // Bob sees his own and never Ada's.
    const bobs = z.array(PortalInvoice).parse((await read('/api/customer/invoices', await signIn(bob))).json());
    expect(bobs.map((i) => i.invoiceNumber)).toEqual([numbers.bob]);
  });

  it("names the facility of each of the renter's leases, each with its own phone and the renter's units there", async () => {
    const cookie = await signIn(ada);
    const response = await read('/api/customer/contact', cookie);
    expect(response.statusCode, response.body).toBe(200);
    const contact = PortalContact.strict().parse(response.json());
    expect(contact).toEqual({
      places: [
        {
          facilityId: portland.id,
          name: portland.name,
          phone: portland.phone,
          address: portland.address,
          units: [
            { building: 'B', unitNumber: units.portland1 },
            { building: 'B', unitNumber: units.portland2 },
          ],
        },
        { facilityId: tacoma.id, name: tacoma.name, phone: tacoma.phone, address: tacoma.address, units: [{ building: 'B', unitNumber: units.tacoma }] },
      ],
      email: business.email,
    });
    // The statement to download is written for that renter too.
    const statement = await read('/api/customer/statement.pdf', cookie);
    expect(statement.statusCode).toBe(200);
    expect(statement.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("falls back to the business's phone where the facility has none, and to the business for a renter of no facility", async () => {
    const contactOf = async (who: typeof ada) => PortalContact.parse((await read('/api/customer/contact', await signIn(who))).json());
    expect(await contactOf(bob)).toEqual({
      places: [{ facilityId: quiet.id, name: quiet.name, phone: business.phone, address: quiet.address, units: [{ building: 'B', unitNumber: units.quiet }] }],
      email: business.email,
    });
    expect(await contactOf(cy)).toEqual({
      places: [{ facilityId: null, name: business.name, phone: business.phone, address: null, units: [] }],
      email: business.email,
    });
    // No lease yet: the facility on the renter's record.
    expect(await contactOf(dee)).toEqual({
      places: [{ facilityId: portland.id, name: portland.name, phone: portland.phone, address: portland.address, units: [] }],
      email: business.email,
    });
  });
});
