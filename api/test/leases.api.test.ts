import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { Lease, LeaseDocument } from '@storage/contracts/leases';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice } from '@storage/domain/invoices/commands';
import { updatePaymentSettings } from '@storage/domain/settings/commands';
import { addUnit, changeUnitStatus } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const tag = () => Math.random().toString(36).slice(2, 8);

describe('leases API', () => {
  let platform: TestPlatform;
  let cookie: string;
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });

  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };

  async function newFacility() {
    const facilityId = randomUUID();
    await projected(
      await addFacility(context(), { name: `Lease Test ${tag()}`, address: '1 Test Way', phone: null, managerName: 'Maria Gonzalez' }, facilityId),
    );
    return facilityId;
  }

  async function newUnit(options: { facilityId?: string | null; unitNumber?: string; monthlyRate?: string } = {}) {
    const unitId = randomUUID();
    const fields = {
      facilityId: options.facilityId ?? null,
      unitNumber: options.unitNumber ?? `L-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: options.monthlyRate ?? '120.00',
      status: 'available' as const,
      description: null,
    };
    await projected(await addUnit(context(), fields, unitId));
    return { id: unitId, ...fields };
  }

  async function newCustomer(overrides: Record<string, unknown> = {}) {
    const response = await inject('POST', '/api/customers', {
      firstName: 'Jane',
      lastName: 'Renter',
      email: `jane-${tag()}-${tag()}@example.com`,
      phone: '555-010-2030',
      ...overrides,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; firstName: string; lastName: string; email: string };
  }

  async function moveIn(overrides: Record<string, unknown> = {}) {
    const customer = await newCustomer();
    const unit = await newUnit();
    const response = await inject('POST', '/api/leases', {
      customerId: customer.id,
      unitId: unit.id,
      monthlyRate: '120.00',
      depositAmount: '60.00',
      startDate: '2025-03-01',
      ...overrides,
    });
    expect(response.statusCode).toBe(201);
    return { lease: Lease.parse(response.json()), customer, unit };
  }

  async function unitStatus(unitId: string) {
    const { state } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    return state.status === 'current' ? state.fields.status : 'none';
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every leases call when signed out', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/leases'],
      ['GET', '/api/leases/counts'],
      ['GET', '/api/leases/export.csv'],
      ['POST', '/api/leases'],
      ['POST', `/api/leases/${id}/end`],
      ['GET', `/api/leases/${id}/document`],
      ['GET', `/api/leases/${id}/document.pdf`],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'POST' ? { endDate: '2025-01-01' } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('moves a customer in: 201 with the lease, the unit occupied, and the list shows it at once', async () => {
    const { lease, customer, unit } = await moveIn();
    expect(lease).toMatchObject({
      customer: { id: customer.id, firstName: 'Jane', lastName: 'Renter', email: customer.email, phone: '555-010-2030' },
      unit: { id: unit.id, unitNumber: unit.unitNumber, size: '10x10', building: 'A', facilityId: null },
      isActive: true,
      monthlyRate: '120.00',
      depositAmount: '60.00',
      startDate: '2025-03-01',
      endDate: null,
    });
    // The move-in is billed at once: March's rent and the deposit, due on the move-in day; a lease
    // started in the past then has every month since invoiced, in order, one invoice each.
    const invoices = await platform.api.pool.any(
      sql.type(
        z.object({ due_date: z.string(), amount: z.string() }),
      )`SELECT due_date::text, amount::text FROM invoices WHERE lease_id = ${lease.id} ORDER BY due_date`,
    );
    expect(invoices[0]).toEqual({ due_date: '2025-03-01', amount: '180.00' });
    expect(invoices.slice(1, 3)).toEqual([
      { due_date: '2025-04-01', amount: '120.00' },
      { due_date: '2025-05-01', amount: '120.00' },
    ]);
    expect(lease.invoiceSummary).toEqual({ paid: 0, overdue: 0, total: invoices.length });
    expect(await unitStatus(unit.id)).toBe('occupied');
    const unitEvents = await platform.api.store.readStream(streams.unit(unit.id));
    expect(unitEvents.at(-1)!.data).toMatchObject({ status: 'occupied', leaseId: lease.id, reservationId: null });

    const list = await inject('GET', `/api/leases?search=${encodeURIComponent(unit.unitNumber)}`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([lease]);
  });

  it('gives a unit to exactly one of twenty simultaneous move-ins', async () => {
    const unit = await newUnit();
    const customers = await Promise.all(Array.from({ length: 20 }, () => newCustomer()));
    const responses = await Promise.all(
      customers.map((c) => inject('POST', '/api/leases', { customerId: c.id, unitId: unit.id, monthlyRate: '120.00', startDate: '2025-03-01' })),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(responses.find((r) => r.statusCode === 409)!.json().message).toContain(`Unit ${unit.unitNumber} is already leased`);
    const listed = await inject('GET', `/api/leases?search=${encodeURIComponent(unit.unitNumber)}`);
    expect(listed.json()).toHaveLength(1);
  });

  it.each([
    ['a missing customer', { customerId: undefined }, 'customerId'],
    ['a customer id that is no id', { customerId: 'nope' }, 'customerId'],
    ['a monthly rate that is no amount', { monthlyRate: '12.345' }, 'monthlyRate'],
    ['a monthly rate of zero', { monthlyRate: '0.00' }, 'monthlyRate'],
    ['a negative deposit', { depositAmount: '-5.00' }, 'depositAmount'],
    ['a start date that is no date', { startDate: '03/01/2025' }, 'startDate'],
    ['an unknown field', { isActive: false }, 'isActive'],
  ])('refuses a move-in with %s: 400 naming the field, nothing written', async (_what, overrides, field) => {
    const customer = await newCustomer();
    const unit = await newUnit();
    const before = (await inject('GET', '/api/leases/counts')).json();
    const response = await inject('POST', '/api/leases', {
      customerId: customer.id,
      unitId: unit.id,
      monthlyRate: '120.00',
      startDate: '2025-03-01',
      ...overrides,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect((await inject('GET', '/api/leases/counts')).json()).toEqual(before);
    expect(await unitStatus(unit.id)).toBe('available');
  });

  it('refuses a move-in to a customer or unit that does not exist, or a unit under maintenance', async () => {
    const customer = await newCustomer();
    const unit = await newUnit();
    const terms = { customerId: customer.id, unitId: unit.id, monthlyRate: '120.00', startDate: '2025-03-01' };
    expect((await inject('POST', '/api/leases', { ...terms, customerId: randomUUID() })).statusCode).toBe(404);
    expect((await inject('POST', '/api/leases', { ...terms, unitId: randomUUID() })).statusCode).toBe(404);
    await changeUnitStatus(context(), unit.id, 'maintenance', 'Door repair');
    const repair = await inject('POST', '/api/leases', terms);
    expect(repair.statusCode).toBe(409);
    expect(repair.json()).toMatchObject({ message: `Unit ${unit.unitNumber} is under maintenance`, field: 'unitId' });
    expect(await platform.api.store.readStream(streams.unit(unit.id))).toHaveLength(2);
  });

  it('lets an auditor read leases but not move anyone in or out', async () => {
    const auditor = await platform.signIn('auditor');
    const { lease } = await moveIn();
    expect((await inject('GET', '/api/leases', undefined, auditor)).statusCode).toBe(200);
    const customer = await newCustomer();
    const unit = await newUnit();
    const moveInAsAuditor = await inject(
      'POST',
      '/api/leases',
      { customerId: customer.id, unitId: unit.id, monthlyRate: '120.00', startDate: '2025-03-01' },
      auditor,
    );
    expect(moveInAsAuditor.statusCode).toBe(403);
    expect((await inject('POST', `/api/leases/${lease.id}/end`, { endDate: '2025-06-30' }, auditor)).statusCode).toBe(403);
  });

  it('moves a customer out: the lease ends, the unit is available, and repeating it changes nothing', async () => {
    const { lease, unit } = await moveIn();
    const ended = await inject('POST', `/api/leases/${lease.id}/end`, { endDate: '2025-06-30' });
    expect(ended.statusCode).toBe(200);
    expect(Lease.parse(ended.json())).toMatchObject({ id: lease.id, isActive: false, endDate: '2025-06-30' });
    expect(await unitStatus(unit.id)).toBe('available');
    const inactive = await inject('GET', `/api/leases?search=${encodeURIComponent(unit.unitNumber)}&status=inactive`);
    expect(inactive.json().map((l: Lease) => l.id)).toEqual([lease.id]);

    const again = await inject('POST', `/api/leases/${lease.id}/end`, { endDate: '2025-06-30' });
    expect(again.statusCode).toBe(200);
    const leaseEvents = (await platform.api.store.readStream(streams.lease(lease.id))).map((e) => e.type).filter((type) => type !== 'lease_rent_billed');
    expect(leaseEvents).toEqual(['lease_started', 'lease_ended']);
    const otherDay = await inject('POST', `/api/leases/${lease.id}/end`, { endDate: '2025-07-31' });
    expect(otherDay.statusCode).toBe(409);
    expect(otherDay.json().message).toBe('This lease already ended on 2025-06-30');
  });

  it('refuses a move-out before the start date, of an unknown lease, or with bad input', async () => {
    const { lease } = await moveIn();
    const early = await inject('POST', `/api/leases/${lease.id}/end`, { endDate: '2025-02-28' });
    expect(early.statusCode).toBe(400);
    expect(early.json().field).toBe('endDate');
    expect((await inject('POST', `/api/leases/${randomUUID()}/end`, { endDate: '2025-06-30' })).statusCode).toBe(404);
    expect((await inject('POST', '/api/leases/not-a-uuid/end', { endDate: '2025-06-30' })).json().field).toBe('id');
    const noDate = await inject('POST', `/api/leases/${lease.id}/end`, {});
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().field).toBe('endDate');
  });

  it('searches first name, last name, email and unit number (not phone), and filters by status', async () => {
    const name = `Zora${tag()}`;
    const { lease, customer, unit } = await moveIn();
    const renamed = await platform.api.app.inject({
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { firstName: name, lastName: `Quill${tag()}`, phone: '555-777-9999' },
      headers: { cookie },
    });
    expect(renamed.statusCode).toBe(200);
    const ids = async (query: string) => (await inject('GET', `/api/leases?${query}`)).json().map((l: Lease) => l.id);

    expect(await ids(`search=${name.toUpperCase()}`)).toEqual([lease.id]);
    expect(await ids(`search=${renamed.json().lastName}`)).toEqual([lease.id]);
    expect(await ids(`search=${encodeURIComponent(customer.email)}`)).toEqual([lease.id]);
    expect(await ids(`search=${encodeURIComponent(unit.unitNumber.toLowerCase())}`)).toEqual([lease.id]);
    expect(await ids('search=555-777-9999')).toEqual([]);
    expect(await ids(`search=${name}&status=active`)).toEqual([lease.id]);
    expect(await ids(`search=${name}&status=inactive`)).toEqual([]);
    expect(await ids('search=%25')).toEqual([]);
  });

  it("lists one customer's leases (what the invoice form offers), and refuses a customer id that is no id", async () => {
    const { lease, customer } = await moveIn();
    await moveIn();
    const listed = await inject('GET', `/api/leases?customerId=${customer.id}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((l: Lease) => l.id)).toEqual([lease.id]);
    const bad = await inject('GET', '/api/leases?customerId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('customerId');
  });

  it('scopes the list, the counts and the export by the unit’s facility, and pages on the server', async () => {
    const facilityId = await newFacility();
    const surname = `Scope${tag()}`;
    const leases = [];
    for (let i = 0; i < 3; i++) {
      const customer = await newCustomer({ lastName: surname });
      const unit = await newUnit({ facilityId });
      const response = await inject('POST', '/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '99.50', startDate: '2025-04-01' });
      leases.push(Lease.parse(response.json()));
    }
    await moveIn();
    await inject('POST', `/api/leases/${leases[0]!.id}/end`, { endDate: '2025-05-31' });

    const scoped = await inject('GET', `/api/leases?facilityId=${facilityId}&pageSize=2`);
    expect(scoped.headers['x-total-count']).toBe('3');
    expect(scoped.json().map((l: Lease) => l.id)).toEqual([leases[2]!.id, leases[1]!.id]);
    const secondPage = await inject('GET', `/api/leases?facilityId=${facilityId}&pageSize=2&page=2`);
    expect(secondPage.json().map((l: Lease) => l.id)).toEqual([leases[0]!.id]);
    const pastTheEnd = await inject('GET', `/api/leases?facilityId=${facilityId}&pageSize=2&page=5`);
    expect(pastTheEnd.json()).toEqual([]);
    expect(pastTheEnd.headers['x-total-count']).toBe('3');

    expect((await inject('GET', `/api/leases/counts?facilityId=${facilityId}`)).json()).toEqual({ all: 3, active: 2, inactive: 1 });
    expect((await inject('GET', `/api/leases/counts?facilityId=${facilityId}&search=nobody-${tag()}`)).json()).toEqual({ all: 0, active: 0, inactive: 0 });
    const everywhere = (await inject('GET', `/api/leases/counts?search=${surname}`)).json();
    expect(everywhere).toEqual({ all: 3, active: 2, inactive: 1 });

    const csv = await inject('GET', `/api/leases/export.csv?facilityId=${facilityId}&status=active`);
    const records = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(records).toHaveLength(3);
    expect(records.slice(1).every((r) => r.includes(surname) && r.includes(',Active,99.50,'))).toBe(true);
  });

  it.each([
    ['status', 'status=ended'],
    ['pageSize', 'pageSize=abc'],
    ['facilityId', 'facilityId=somewhere'],
    ['colour', 'colour=red'],
  ])('refuses a bad %s in the list query with 400', async (field, query) => {
    for (const path of ['/api/leases', '/api/leases/export.csv']) {
      const response = await inject('GET', `${path}?${query}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().field).toBe(field);
    }
  });

  it("sums up each lease's invoices: paid, overdue and total", async () => {
    // The engine's invoices (move-in and rent since) are sent: neither paid nor overdue.
    const { lease, customer } = await moveIn();
    const billed = lease.invoiceSummary.total;
    const invoice = (status: 'paid' | 'overdue' | 'sent') => ({
      invoiceNumber: `INV-${tag()}-${tag()}`,
      customerId: customer.id,
      leaseId: lease.id,
      amount: '120.00',
      dueDate: '2025-04-01',
      status,
      description: null,
      payment: status === 'paid' ? { method: 'cash' as const, reference: null } : null,
    });
    for (const status of ['paid', 'paid', 'overdue', 'sent'] as const) await projected(await generateInvoice(context(), invoice(status)));
    const [listed] = (await inject('GET', `/api/leases?search=${encodeURIComponent(customer.email)}`)).json();
    expect(listed.invoiceSummary).toEqual({ paid: 2, overdue: 1, total: billed + 4 });
  });

  it('exports the leases as CSV, escaping what needs it', async () => {
    const { lease, unit } = await moveIn();
    const customer = await newCustomer({ firstName: 'Smith, "Jo"', lastName: '=cmd' });
    const other = await newUnit();
    const second = await inject('POST', '/api/leases', { customerId: customer.id, unitId: other.id, monthlyRate: '75.00', startDate: '2025-05-01' });
    expect(second.statusCode).toBe(201);

    const all = await inject('GET', '/api/leases/export.csv');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toMatch(/^attachment; filename="leases-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...records] = all.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header).toBe(
      'Lease ID,First Name,Last Name,Email,Phone,Unit Number,Size,Building,Status,Monthly Rate,Deposit,Start Date,End Date,Paid Invoices,Overdue Invoices,Total Invoices,Created At',
    );
    expect(records).toHaveLength(Number((await inject('GET', '/api/leases')).headers['x-total-count']));
    expect(records[0]).toContain(`${second.json().id},"Smith, ""Jo""",'=cmd,`);
    // Its invoices are the engine's: sent, so neither paid nor overdue.
    expect(records.find((r) => r.startsWith(lease.id))).toContain(
      `,${unit.unitNumber},10x10,A,Active,120.00,60.00,2025-03-01,,0,0,${lease.invoiceSummary.total},`,
    );

    const searched = await inject('GET', `/api/leases/export.csv?search=${encodeURIComponent(unit.unitNumber)}`);
    expect(searched.body.trimEnd().split('\r\n')).toHaveLength(2);
  });

  it('writes out the lease document with the six terms, the late fee from Settings and the facility manager', async () => {
    const facilityId = await newFacility();
    const customer = await newCustomer();
    const unit = await newUnit({ facilityId });
    const created = await inject('POST', '/api/leases', { customerId: customer.id, unitId: unit.id, monthlyRate: '120.00', startDate: '2025-03-01' });
    const leaseId = created.json().id;
    await projected(await updatePaymentSettings(context(), { automaticCharging: true, lateFeeAmount: '30.00' }));

    const response = await inject('GET', `/api/leases/${leaseId}/document?timeZone=America/Chicago`);
    expect(response.statusCode).toBe(200);
    const document = LeaseDocument.parse(response.json());
    expect(document.leaseId).toBe(leaseId);
    expect(document.sections.map((s) => s.title)).toEqual(['Tenant Information', 'Unit Information', 'Lease Terms']);
    expect(document.termsAndConditions).toHaveLength(6);
    expect(document.termsAndConditions[1]).toContain('$30.00');
    expect(document.signatures).toEqual([
      { party: 'Tenant', name: 'Jane Renter' },
      { party: 'Facility Manager', name: 'Maria Gonzalez' },
    ]);
    expect(document.generatedAtText).toMatch(/C[SD]T$/);

    const badZone = await inject('GET', `/api/leases/${leaseId}/document?timeZone=Mars/Olympus`);
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json().field).toBe('timeZone');
    expect((await inject('GET', `/api/leases/${randomUUID()}/document`)).statusCode).toBe(404);
  });

  it('downloads the lease document as a real PDF', async () => {
    const { lease, unit } = await moveIn();
    const response = await inject('GET', `/api/leases/${lease.id}/document.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="lease-${unit.unitNumber}-Renter.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(response.rawPayload.subarray(-8).toString()).toContain('%%EOF');
    expect((await inject('GET', `/api/leases/${randomUUID()}/document.pdf`)).statusCode).toBe(404);
    expect((await inject('GET', '/api/leases/nope/document.pdf')).statusCode).toBe(400);
  });
});
