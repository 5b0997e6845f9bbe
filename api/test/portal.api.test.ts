import { fromCents, toCents } from '@storage/contracts/money';
import { PortalAccessLog, PortalAccount, PortalContact, PortalInvoice, PortalProfile, PortalSession, PortalUnit } from '@storage/contracts/portal';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const Renter = z.object({ id: z.string(), email: z.string(), phone: z.string() });
type Renter = z.infer<typeof Renter>;

const portalReads = ['/api/customer/profile', '/api/customer/account', '/api/customer/invoices', '/api/customer/units', '/api/customer/access-logs'];
const last4 = (phone: string) => phone.replace(/\D/g, '').slice(-4);
let nextIp = 1;
/** Each test gets its own client address, so the per-IP limit of one test never touches another. */
const freshIp = () => `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

describe('customer portal API', () => {
  let platform: TestPlatform;
  let renterA: Renter;
  let renterB: Renter;
  /** The renter whose gate sees failures: the others' digits alone keep opening their sessions. */
  let renterC: Renter;

  const verify = (payload: unknown, ip = freshIp()) =>
    platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: payload as object, remoteAddress: ip });
  const read = (url: string, cookie?: string) => platform.api.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  async function signIn(renter: Renter) {
    const response = await verify({ email: renter.email, phoneLast4: last4(renter.phone) });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    // Renters with an active lease, an unpaid bill and a way in through a smart lock.
    const renters = await platform.api.pool.any(sql.type(Renter)`
      SELECT c.id::text, c.email, c.phone FROM customers c
      WHERE NOT c.archived AND c.phone ~ '[0-9]{4}'
        AND EXISTS (SELECT 1 FROM leases l WHERE l.customer_id = c.id AND l.is_active)
        AND EXISTS (SELECT 1 FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue'))
        AND EXISTS (SELECT 1 FROM activities a WHERE a.customer_id = c.id AND a.type = 'access_granted')
      ORDER BY c.email LIMIT 3`);
    expect(renters).toHaveLength(3);
    [renterA, renterB, renterC] = renters as [Renter, Renter, Renter];
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('refuses bad input with 400 naming the field, and no session', async () => {
    for (const [payload, field] of [
      [{ phoneLast4: '1234' }, 'email'],
      [{ email: '', phoneLast4: '1234' }, 'email'],
      [{ email: 'not-an-email', phoneLast4: '1234' }, 'email'],
      [{ email: 'a@example.com' }, 'phoneLast4'],
      [{ email: 'a@example.com', phoneLast4: '   ' }, 'phoneLast4'],
      [{ email: 'a@example.com', phoneLast4: 1234 }, 'phoneLast4'],
    ] as const) {
      const response = await verify(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().field).toBe(field);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect((await verify({ email: 'a@example.com', phoneLast4: '1234', admin: true })).statusCode).toBe(400);
    expect(
      (await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: '"x"', headers: { 'content-type': 'application/json' } }))
        .statusCode,
    ).toBe(400);
  });

  it('answers a phone mismatch and an unknown email alike (401, the same words), opening no session', async () => {
    const wrongDigits = String((Number(last4(renterC.phone)) + 1) % 10000).padStart(4, '0');
    const mismatch = await verify({ email: renterC.email, phoneLast4: wrongDigits });
    expect(mismatch.statusCode).toBe(401);
    expect(mismatch.json()).toEqual({ message: "Email and phone number don't match our records." });
    expect(mismatch.headers['set-cookie']).toBeUndefined();

    const unknown = await verify({ email: 'nobody-here@example.com', phoneLast4: '1234' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(mismatch.json());
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('opens a portal session on a match (digits only, any case of email) and answers the profile', async () => {
    const digits = last4(renterA.phone);
    const response = await verify({ email: renterA.email.toUpperCase(), phoneLast4: ` ${digits.slice(0, 2)}-${digits.slice(2)} ` });
    expect(response.statusCode).toBe(200);
    const profile = PortalProfile.strict().parse(response.json());
    expect(profile.email).toBe(renterA.email);
    const cookie = sessionCookie(response.headers['set-cookie']);
    expect(PortalProfile.parse((await read('/api/customer/profile', cookie)).json())).toEqual(profile);
  });

  it("gives the renter their own facility's name, phone and address to call, and the business's phone where the facility has none", async () => {
    const cookie = await signIn(renterA);
    const Facility = z.object({ id: z.string(), name: z.string(), phone: z.string().nullable(), address: z.string() });
    // The facility of the renter's lease (the demo's renters rent at one).
    const facility = await platform.api.pool.one(sql.type(Facility)`
      SELECT DISTINCT f.id::text, f.name, f.phone, f.address
      FROM leases l JOIN units u ON u.id = l.unit_id JOIN facilities f ON f.id = u.facility_id
      WHERE l.customer_id = ${renterA.id} AND l.is_active`);
    const business = (await platform.api.app.inject({ method: 'GET', url: '/api/settings', headers: { cookie: await platform.signIn() } })).json()
      .businessProfile as { phone: string | null; email: string | null };
    const contact = async () => PortalContact.strict().parse((await read('/api/customer/contact', cookie)).json());
    const { places, email } = await contact();
    expect(email).toBe(business.email);
    expect(places.map(({ units: _, ...place }) => place)).toEqual([
      { facilityId: facility.id, name: facility.name, phone: facility.phone, address: facility.address },
    ]);

    const staff = await platform.signIn();
    const cleared = await platform.api.app.inject({
      method: 'PATCH',
      url: `/api/facilities/${facility.id}`,
      payload: { phone: null },
      headers: { cookie: staff },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    await platform.readModelCaughtUp();
    expect((await contact()).places[0]!.phone).toBe(business.phone);
  });

  it('answers 401 to every portal read without a portal session, also for a staff session', async () => {
    const staff = await platform.signIn();
    for (const url of portalReads) {
      expect((await read(`${url}?email=${encodeURIComponent(renterA.email)}`)).statusCode, url).toBe(401);
      expect((await read(url, staff)).statusCode, `${url} as staff`).toBe(401);
    }
  });

  it("scopes every read to the session's customer: another email is 403, and A never sees B's rows", async () => {
    const cookie = await signIn(renterA);
    for (const url of portalReads) {
      const other = await read(`${url}?email=${encodeURIComponent(renterB.email)}`, cookie);
      expect(other.statusCode, url).toBe(403);
      expect((await read(`${url}?email=${encodeURIComponent(renterA.email.toUpperCase())}`, cookie)).statusCode, url).toBe(200);
      expect((await read(`${url}?email=not-an-email`, cookie)).statusCode, url).toBe(400);
    }

    const invoices = z.array(PortalInvoice.strict()).parse((await read('/api/customer/invoices', cookie)).json());
    expect(invoices.length).toBeGreaterThan(0);
    expect(invoices.every((i) => i.customerId === renterA.id)).toBe(true);
    expect(invoices.every((i) => ['sent', 'paid', 'overdue'].includes(i.status))).toBe(true);
    // Every charge is shown: the lines add up to the amount.
    for (const invoice of invoices) {
      expect(invoice.lines.length, invoice.invoiceNumber).toBeGreaterThan(0);
      expect(fromCents(invoice.lines.reduce((sum, line) => sum + toCents(line.amount), 0n)), invoice.invoiceNumber).toBe(invoice.amount);
    }
    expect(invoices.map((i) => i.dueDate)).toEqual(
      invoices
        .map((i) => i.dueDate)
        .sort()
        .reverse(),
    );
    const unpaid = await platform.api.pool.oneFirst(sql.type(z.object({ total: z.string() }))`
      SELECT coalesce(sum(amount - amount_paid), 0)::numeric(20, 2)::text AS total FROM invoices WHERE customer_id = ${renterA.id} AND status IN ('sent', 'overdue')`);
    const account = PortalAccount.strict().parse((await read('/api/customer/account', cookie)).json());
    expect(account.openBalance).toBe(unpaid);
    expect(account.status).toBe(invoices.some((i) => i.status === 'overdue') ? 'OVERDUE' : 'CURRENT');

    const units = z.array(PortalUnit.strict()).parse((await read('/api/customer/units', cookie)).json());
    const activeLeases = await platform.api.pool.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM leases WHERE customer_id = ${renterA.id} AND is_active`);
    expect(units.map((u) => u.leaseId).sort()).toEqual([...activeLeases].sort());
    expect(units.every((u) => u.status === 'Active')).toBe(true);

    const logs = z.array(PortalAccessLog.strict()).parse((await read('/api/customer/access-logs', cookie)).json());
    // The gateway's attempts of the renter's own (access.api.test.ts records some and checks who sees them).
    const ownLogIds = await platform.api.pool.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM access_attempts WHERE customer_id = ${renterA.id}`);
    expect(logs.every((l) => ownLogIds.includes(l.id))).toBe(true);

    const bInvoiceIds = await platform.api.pool.anyFirst(sql.type(z.object({ id: z.string() }))`
      SELECT id::text FROM invoices WHERE customer_id = ${renterB.id}`);
    expect(invoices.some((i) => bInvoiceIds.includes(i.id))).toBe(false);
  });

  it('closes the portal session on sign-out', async () => {
    const cookie = await signIn(renterA);
    const signOut = await platform.api.app.inject({ method: 'POST', url: '/api/customer/sign-out', headers: { cookie } });
    expect(signOut.statusCode).toBe(204);
    const cleared = sessionCookie(signOut.headers['set-cookie']);
    expect((await read('/api/customer/profile', cleared)).statusCode).toBe(401);
    expect((await read('/api/customer/session', cleared)).json()).toEqual({ signedIn: false });
  });

  it('tells whether a portal session is open with 200 either way, and whose', async () => {
    const none = await read('/api/customer/session');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ signedIn: false });
    const staff = await read('/api/customer/session', await platform.signIn());
    expect(staff.json()).toEqual({ signedIn: false });
    const open = await read('/api/customer/session', await signIn(renterB));
    expect(open.statusCode).toBe(200);
    expect(PortalSession.parse(open.json())).toEqual({ signedIn: true, profile: expect.objectContaining({ email: renterB.email }) });
  });

  it('refuses an email from an address after 5 failures there, and never locks the renter out elsewhere: their right digits mail a code', async () => {
    const guesser = freshIp();
    for (let i = 0; i < 5; i++) expect((await verify({ email: renterC.email, phoneLast4: 'x0000' }, guesser)).statusCode).toBe(401);
    const refused = await verify({ email: renterC.email, phoneLast4: last4(renterC.phone) }, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many attempts. Try again in 15 minutes.');
    // From the renter's own address the right digits are not refused; after failures elsewhere they mail a code instead of opening a session.
    const renter = await verify({ email: renterC.email, phoneLast4: last4(renterC.phone) });
    expect(renter.statusCode, renter.body).toBe(202);
    expect(renter.json()).toEqual({ codeSent: true, message: 'We emailed you a 6-digit sign-in code. Enter it to open your account.' });
    expect(renter.headers['set-cookie']).toBeUndefined();
    // Another renter gets in from a fresh address as before.
    await signIn(renterA);
  });

  it('refuses an IP after 20 failures within 15 minutes, for any email', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      expect((await verify({ email: `guess-${i}@example.com`, phoneLast4: '0000' }, ip)).statusCode).toBe(401);
    }
    const refused = await verify({ email: renterA.email, phoneLast4: last4(renterA.phone) }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in 1[45] minutes\.$/);
    expect((await verify({ email: renterA.email, phoneLast4: last4(renterA.phone) }, freshIp())).statusCode).toBe(200);
  });

  it('does not count successes', async () => {
    const ip = freshIp();
    for (let i = 0; i < 25; i++) {
      expect((await verify({ email: renterA.email, phoneLast4: last4(renterA.phone) }, ip)).statusCode).toBe(200);
    }
  });
});
