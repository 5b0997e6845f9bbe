import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { listEarlierLeases } from '@storage/domain/customers/lease-listing';
import { markCustomerOverdue, markInvoiceOverdue } from '@storage/domain/invoices/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const customer = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Jane',
  lastName: 'Renter',
  email: `jane-${Math.random().toString(36).slice(2, 10)}@example.com`,
  phone: '555-010-2030',
  address: '1 Main St',
  emergencyContact: '',
  emergencyPhone: '',
  status: 'active',
  ...overrides,
});

describe.each(['postgres', 'redis'] as const)('customers API (BullMQ on %s)', (queue) => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie, ...headers } });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });

  beforeAll(async () => {
    platform = await startTestPlatform({ queue });
    cookie = await platform.signIn();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every customers call when signed out', async () => {
    for (const [method, url] of [
      ['GET', '/api/customers'],
      ['POST', '/api/customers'],
      ['PATCH', '/api/customers/4b8e8a3e-0000-4000-8000-000000000000'],
      ['DELETE', '/api/customers/4b8e8a3e-0000-4000-8000-000000000000'],
      ['POST', '/api/customers/4b8e8a3e-0000-4000-8000-000000000000/standing'],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : customer() });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('creates a customer that the list shows at once (read-your-writes)', async () => {
    const input = customer();
    const created = await inject('POST', '/api/customers', input);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ firstName: 'Jane', lastName: 'Renter', email: input.email, status: 'active', emergencyContact: null });

    const list = await inject('GET', `/api/customers?search=${encodeURIComponent(input.email)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((c: { id: string }) => c.id)).toEqual([created.json().id]);
    expect(list.headers['x-total-count']).toBe('1');
  });

  it('refuses a duplicate email with 409, also when the case differs', async () => {
    const input = customer();
    expect((await inject('POST', '/api/customers', input)).statusCode).toBe(201);
    const again = await inject('POST', '/api/customers', { ...input, email: input.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already exists');
  });

  it('lets exactly one of ten simultaneous creates with one email win', async () => {
    const input = customer();
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/customers', input)));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const list = await inject('GET', `/api/customers?search=${encodeURIComponent(input.email)}`);
    expect(list.json()).toHaveLength(1);
  });

  it.each([
    ['a missing required field', { ...customer(), firstName: undefined }, 'firstName'],
    ['a bad email', customer({ email: 'not-an-email' }), 'email'],
    ['an unknown status', customer({ status: 'vip' }), 'status'],
    // A new renter owes nothing: overdue follows the invoices, never a choice.
    ["overdue as a new customer's status", customer({ status: 'overdue' }), 'status'],
    ['a wrong type', customer({ lastName: 42 }), 'lastName'],
    ['an oversize field', customer({ address: 'x'.repeat(501) }), 'address'],
    ['an unknown field', customer({ isAdmin: true }), 'isAdmin'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
    const before = (await inject('GET', '/api/customers')).headers['x-total-count'];
    const response = await inject('POST', '/api/customers', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect((await inject('GET', '/api/customers')).headers['x-total-count']).toBe(before);
  });

  it('refuses malformed JSON and oversize bodies with a 4xx, never a 500', async () => {
    const malformed = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      payload: '{"firstName": ',
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    const huge = await inject('POST', '/api/customers', { ...customer(), notes: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The request body is too large');
    const badQuery = await inject('GET', '/api/customers?pageSize=abc');
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().field).toBe('pageSize');
  });

  it('searches by name, email and phone and scopes by facility on the server', async () => {
    const facilityId = '9a1d2c3e-1111-4222-8333-444455556666';
    const tag = Math.random().toString(36).slice(2, 8);
    await inject('POST', '/api/customers', customer({ firstName: `Zed${tag}`, facilityId }));
    await inject('POST', '/api/customers', customer({ firstName: `Zed${tag}` }));
    const byName = await inject('GET', `/api/customers?search=zed${tag}`);
    expect(byName.json()).toHaveLength(2);
    const scoped = await inject('GET', `/api/customers?search=zed${tag}&facilityId=${facilityId}`);
    expect(scoped.json()).toHaveLength(1);
    expect(scoped.json()[0].facilityId).toBe(facilityId);
    const byPhone = await inject('GET', '/api/customers?search=010-2030');
    expect(byPhone.json().length).toBeGreaterThanOrEqual(2);
    const wildcard = await inject('GET', '/api/customers?search=%25');
    expect(wildcard.json()).toHaveLength(0);
  });

  it('edits a customer (customer_updated) and keeps fields that were not sent', async () => {
    const created = (await inject('POST', '/api/customers', customer({ phone: '555-999-0000' }))).json();
    const edited = await inject('PATCH', `/api/customers/${created.id}`, { lastName: 'Moved', address: '2 Side St' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ lastName: 'Moved', address: '2 Side St', status: 'active', phone: '555-999-0000', firstName: 'Jane' });
    const events = await platform.api.store.readStream(`customer-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['customer_added', 'customer_updated']);
    expect(events[1]!.data).toEqual({ customerId: created.id, changes: { lastName: 'Moved', address: '2 Side St' } });
    expect(events[1]!.metadata.actor.type).toBe('staff');
  });

  it('keeps an overdue renter overdue, and in their facility, when their phone is edited', async () => {
    const facilityId = '9a1d2c3e-2222-4333-8444-555566667777';
    const created = (await inject('POST', '/api/customers', customer({ facilityId }))).json();
    await markCustomerOverdue(context(), created.id, 'INV-7 is 12 days past due');
    expect(await platform.readModelCaughtUp()).toBe(true);
    const edited = await inject('PATCH', `/api/customers/${created.id}`, { phone: '555-010-9999' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ phone: '555-010-9999', status: 'overdue', facilityId });
    expect((await inject('GET', `/api/customers/${created.id}`)).json()).toMatchObject({ status: 'overdue', facilityId });
    const events = await platform.api.store.readStream(`customer-${created.id}`);
    expect(events.at(-1)!.data).toEqual({ customerId: created.id, changes: { phone: '555-010-9999' } });
  });

  it.each([
    ['the standing', { phone: '555-010-1111', status: 'active' }, 'status'],
    ['the facility', { phone: '555-010-1111', facilityId: null }, 'facilityId'],
  ])('refuses an edit that sends %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
    const created = (await inject('POST', '/api/customers', customer())).json();
    const response = await inject('PATCH', `/api/customers/${created.id}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect(await platform.api.store.readStream(`customer-${created.id}`)).toHaveLength(1);
  });

  describe('standing', () => {
    const standingOf = async (id: string) =>
      (await platform.api.store.readStream(`customer-${id}`)).filter((e) => e.type === 'customer_standing_changed').map((e) => e.data);

    it.each(['owner', 'manager', 'clerk'] as const)('lets the %s mark a customer inactive and active again, each with the reason', async (role) => {
      const staff = await platform.signIn(role);
      const created = (await inject('POST', '/api/customers', customer())).json();
      const inactive = await inject('POST', `/api/customers/${created.id}/standing`, { status: 'inactive', reason: ' Moved away ' }, { cookie: staff });
      expect(inactive.statusCode).toBe(200);
      expect(inactive.json()).toMatchObject({ id: created.id, status: 'inactive' });
      expect((await inject('GET', `/api/customers/${created.id}`)).json()).toMatchObject({ status: 'inactive' });
      expect((await inject('GET', '/api/customers?status=inactive')).json().map((c: { id: string }) => c.id)).toContain(created.id);
      const active = await inject('POST', `/api/customers/${created.id}/standing`, { status: 'active', reason: 'Back with a new unit' }, { cookie: staff });
      expect(active.json()).toMatchObject({ status: 'active' });
      expect((await inject('GET', '/api/customers?status=inactive')).json().map((c: { id: string }) => c.id)).not.toContain(created.id);
      const events = (await platform.api.store.readStream(`customer-${created.id}`)).filter((e) => e.type === 'customer_standing_changed');
      expect(events.map((e) => e.data)).toEqual([
        { customerId: created.id, status: 'inactive', reason: 'Moved away' },
        { customerId: created.id, status: 'active', reason: 'Back with a new unit' },
      ]);
      expect(events[0]!.metadata.actor.type).toBe('staff');
    });

    it('refuses an auditor (403) and writes nothing', async () => {
      const auditor = await platform.signIn('auditor');
      const created = (await inject('POST', '/api/customers', customer())).json();
      const refused = await inject('POST', `/api/customers/${created.id}/standing`, { status: 'terminated', reason: 'Fraud' }, { cookie: auditor });
      expect(refused.statusCode).toBe(403);
      expect(await standingOf(created.id)).toEqual([]);
    });

    it.each([
      ['overdue, which follows the invoices', { status: 'overdue', reason: 'By hand' }, 'status'],
      ['an unknown status', { status: 'vip', reason: 'Good renter' }, 'status'],
      ['no status', { reason: 'Moved out' }, 'status'],
      ['no reason', { status: 'terminated' }, 'reason'],
      ['a blank reason', { status: 'terminated', reason: '   ' }, 'reason'],
      ['an oversize reason', { status: 'inactive', reason: 'x'.repeat(201) }, 'reason'],
      ['an unknown field', { status: 'inactive', reason: 'Moved out', facilityId: null }, 'facilityId'],
    ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
      const created = (await inject('POST', '/api/customers', customer())).json();
      const response = await inject('POST', `/api/customers/${created.id}/standing`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(field);
      expect(response.json().message).toContain(field);
      expect(await platform.api.store.readStream(`customer-${created.id}`)).toHaveLength(1);
    });

    it('refuses active while an invoice is overdue (409, nothing written), takes inactive or terminated, and active once it is paid', async () => {
      const renter = (await inject('POST', '/api/customers', customer())).json();
      const dueDate = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
      const invoiceNumber = `INV-ST-${randomUUID().slice(0, 8)}`;
      const invoice = await inject('POST', '/api/invoices', { invoiceNumber, customerId: renter.id, amount: '80.00', dueDate, status: 'sent' });
      expect(invoice.statusCode).toBe(201);
      // As the billing day does: the invoice goes overdue, and its renter with it.
      await markInvoiceOverdue(context(), invoice.json().id);
      await markCustomerOverdue(context(), renter.id, `Invoice ${invoiceNumber} is overdue`);
      const standing = (body: object) => inject('POST', `/api/customers/${renter.id}/standing`, body);
      const written = async () => (await platform.api.store.readStream(`customer-${renter.id}`)).length;
      const before = await written();

      const reinstated = await standing({ status: 'active', reason: 'Promised to pay' });
      expect(reinstated.statusCode).toBe(409);
      expect(reinstated.json().message).toBe('This customer has an overdue invoice; settle it first');
      expect(await written()).toBe(before);

      expect((await standing({ status: 'terminated', reason: 'Abandoned the unit' })).json()).toMatchObject({ status: 'terminated' });
      expect((await standing({ status: 'active', reason: 'Came back' })).statusCode).toBe(409);
      expect(await written()).toBe(before + 1);

      expect((await inject('POST', `/api/customers/${renter.id}/payments`, { amount: '80.00', method: 'cash' })).statusCode).toBe(201);
      // Paying does not undo a manager's decision; staff may now.
      expect((await inject('GET', `/api/customers/${renter.id}`)).json()).toMatchObject({ status: 'terminated' });
      expect((await standing({ status: 'active', reason: 'Paid in full' })).json()).toMatchObject({ status: 'active' });
      expect((await standingOf(renter.id)).map((data) => (data as { status: string }).status)).toEqual(['overdue', 'terminated', 'active']);
    });

    it('changes nothing when the customer already has the standing, and answers 404 for one archived or unknown', async () => {
      const created = (await inject('POST', '/api/customers', customer())).json();
      const again = await inject('POST', `/api/customers/${created.id}/standing`, { status: 'active', reason: 'Already so' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ status: 'active' });
      expect(await platform.api.store.readStream(`customer-${created.id}`)).toHaveLength(1);

      expect((await inject('DELETE', `/api/customers/${created.id}`)).statusCode).toBe(204);
      const archived = await inject('POST', `/api/customers/${created.id}/standing`, { status: 'terminated', reason: 'Gone' });
      expect(archived.statusCode).toBe(404);
      expect((await inject('POST', `/api/customers/${randomUUID()}/standing`, { status: 'inactive', reason: 'Who?' })).statusCode).toBe(404);
      expect(await standingOf(created.id)).toEqual([]);
    });
  });

  it('refuses to archive a renter with an active lease, then one who still owes, and writes nothing; archives them once moved out and settled', async () => {
    const input = customer();
    const renter = (await inject('POST', '/api/customers', input)).json();
    const unit = (await inject('POST', '/api/units', { unitNumber: `AR-${randomUUID().slice(0, 8)}`, building: 'A', monthlyRate: '100.00' })).json();
    const today = new Date().toISOString().slice(0, 10);
    const lease = await inject('POST', '/api/leases', { customerId: renter.id, unitId: unit.id, monthlyRate: '100.00', startDate: today });
    expect(lease.statusCode).toBe(201);
    const written = async () => (await platform.api.store.readStream(`customer-${renter.id}`)).length;
    const before = await written();

    const renting = await inject('DELETE', `/api/customers/${renter.id}`);
    expect(renting.statusCode).toBe(409);
    expect(renting.json().message).toBe('This customer has an active lease; move them out first');
    expect(await written()).toBe(before);
    expect((await inject('GET', `/api/customers/${renter.id}`)).statusCode).toBe(200);

    expect((await inject('POST', `/api/leases/${lease.json().id}/end`, { endDate: today })).statusCode).toBe(200);
    // The move-in invoice is still owed after the move-out; an invoice staff raised is owed too.
    const raised = await inject('POST', '/api/invoices', {
      invoiceNumber: `INV-AR-${randomUUID().slice(0, 8)}`,
      customerId: renter.id,
      amount: '45.00',
      dueDate: today,
      status: 'sent',
    });
    expect(raised.statusCode).toBe(201);
    expect(await platform.readModelCaughtUp()).toBe(true);
    const owed = (await inject('GET', `/api/customers/${renter.id}/account`)).json().openBalance;
    expect(Number(owed)).toBeGreaterThanOrEqual(45);
    const owing = await inject('DELETE', `/api/customers/${renter.id}`);
    expect(owing.statusCode).toBe(409);
    expect(owing.json().message).toBe(
      `This customer has an open balance of $${Number(owed).toLocaleString('en-US', { minimumFractionDigits: 2 })}; settle it first`,
    );
    expect(await written()).toBe(before);

    expect((await inject('POST', `/api/customers/${renter.id}/payments`, { amount: owed, method: 'cash' })).statusCode).toBe(201);
    expect((await inject('DELETE', `/api/customers/${renter.id}`)).statusCode).toBe(204);
    expect((await inject('GET', `/api/customers?search=${encodeURIComponent(input.email)}`)).json()).toHaveLength(0);
  });

  it("lists once the leases of an earlier release's history on their customers' streams, so that their renter is not archived", async () => {
    const renter = (await inject('POST', '/api/customers', customer())).json();
    const unit = (await inject('POST', '/api/units', { unitNumber: `EL-${randomUUID().slice(0, 8)}`, building: 'A', monthlyRate: '100.00' })).json();
    // A lease as an earlier release wrote it: its own stream alone, nothing on the customer's.
    const leaseId = randomUUID();
    const started = {
      leaseId,
      customerId: renter.id,
      unitId: unit.id,
      facilityId: null,
      startDate: new Date().toISOString().slice(0, 10),
      monthlyRate: '100.00',
      depositAmount: null,
    };
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 2,
      occurredAt: new Date().toISOString(),
    };
    await platform.api.store.append(`lease-${leaseId}`, [{ id: randomUUID(), type: 'lease_started', data: started, metadata }], {
      expectedRevision: 'no_stream',
    });
    const { pool, store } = platform.api;
    // The platform's start listed the history it found then and marked the step done: run again here, as an upgraded install's first start.
    await pool.query(sql.unsafe`DELETE FROM write_side_upgrades WHERE name = 'customer-lease-listing'`);
    expect(await listEarlierLeases(pool, store)).toBe(1);
    expect(await listEarlierLeases(pool, store)).toBe(0);
    const refused = await inject('DELETE', `/api/customers/${renter.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This customer has an active lease; move them out first');
  });

  it('restores an archived customer: listed among the archived until then, back in the list with their email after', async () => {
    const input = customer();
    const created = (await inject('POST', '/api/customers', input)).json();
    expect((await inject('DELETE', `/api/customers/${created.id}`)).statusCode).toBe(204);
    const archived = await inject('GET', `/api/customers?archived=true&search=${encodeURIComponent(input.email)}`);
    expect(archived.json().map((c: { id: string }) => c.id)).toEqual([created.id]);

    const restored = await inject('POST', `/api/customers/${created.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ id: created.id, email: input.email, status: 'active' });
    expect((await inject('GET', `/api/customers?search=${encodeURIComponent(input.email)}`)).json().map((c: { id: string }) => c.id)).toEqual([created.id]);
    expect((await inject('GET', `/api/customers?archived=true&search=${encodeURIComponent(input.email)}`)).json()).toHaveLength(0);
    expect((await inject('GET', `/api/customers/${created.id}`)).statusCode).toBe(200);
    // The email is theirs again: a new account cannot take it.
    expect((await inject('POST', '/api/customers', input)).statusCode).toBe(409);
    const events = await platform.api.store.readStream(`customer-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['customer_added', 'customer_archived', 'customer_restored']);
    const feed = (await inject('GET', `/api/activities?customerId=${created.id}&tab=customers`)).json();
    expect(feed.map((a: { description: string }) => a.description)).toEqual([
      'Customer Jane Renter restored',
      'Customer Jane Renter archived',
      'New customer Jane Renter added',
    ]);
    // Restoring again changes nothing.
    expect((await inject('POST', `/api/customers/${created.id}/restore`)).statusCode).toBe(200);
    expect(await platform.api.store.readStream(`customer-${created.id}`)).toHaveLength(3);
  });

  it('refuses to restore a customer whose email a new account took meanwhile (409), and restores none that does not exist (404)', async () => {
    const input = customer();
    const first = (await inject('POST', '/api/customers', input)).json();
    expect((await inject('DELETE', `/api/customers/${first.id}`)).statusCode).toBe(204);
    expect((await inject('POST', '/api/customers', input)).statusCode).toBe(201);
    const taken = await inject('POST', `/api/customers/${first.id}/restore`);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ message: `A customer with the email ${input.email} already exists`, field: 'email' });
    expect((await inject('POST', `/api/customers/${randomUUID()}/restore`)).statusCode).toBe(404);
  });

  it('archives a customer: gone from the list, history kept, email free again', async () => {
    const input = customer();
    const created = (await inject('POST', '/api/customers', input)).json();
    expect((await inject('DELETE', `/api/customers/${created.id}`)).statusCode).toBe(204);
    expect((await inject('GET', `/api/customers?search=${encodeURIComponent(input.email)}`)).json()).toHaveLength(0);
    const events = await platform.api.store.readStream(`customer-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['customer_added', 'customer_archived']);
    expect((await inject('POST', '/api/customers', input)).statusCode).toBe(201);
    expect((await inject('DELETE', '/api/customers/not-a-uuid')).statusCode).toBe(400);
    expect((await inject('DELETE', '/api/customers/4b8e8a3e-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('read-your-writes behind an older open transaction', () => {
  let platform: TestPlatform;
  let cookie: string;
  beforeAll(async () => {
    // No safety net within the test: only the projector's own retry can pass the held-back event.
    platform = await startTestPlatform({ safetyNetMs: 600_000 });
    cookie = await platform.signIn();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('shows a customer created while another transaction of the database was open, once that transaction ends', async () => {
    // Any write in flight holds an id below the command's (a sign-in's session row, a queue job, a
    // reaction's checkpoint): the store reads no event past it until it ends, and its end wakes nobody.
    const older = new pg.Client({ connectionString: platform.database.url });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      const email = `held-${Math.random().toString(36).slice(2, 10)}@example.com`;
      const creating = platform.api.app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: { cookie },
        payload: { firstName: 'Held', lastName: 'Back', email, status: 'active' },
      });
      // The command has written its event, which the open transaction hides from the log's readers:
      // only then does ending that transaction test the wait behind it.
      await expect
        .poll(() => platform.api.pool.exists(sql.unsafe`SELECT 1 FROM event_store.events WHERE type = 'customer_added' AND data->>'email' = ${email}`))
        .toBe(true);
      await older.query('COMMIT');
      const created = await creating;
      expect(created.statusCode).toBe(201);
      const list = await platform.api.app.inject({ method: 'GET', url: `/api/customers?search=${encodeURIComponent(email)}`, headers: { cookie } });
      expect(list.json().map((c: { id: string }) => c.id)).toEqual([created.json().id]);
    } finally {
      await older.end();
    }
  });
});
