import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { MoveInQuote, PublicMoveInQuote, UNIT_NOT_AVAILABLE_MESSAGE } from '@storage/contracts/quotes';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The move-in quote against the real billing: a Move In on the quoted terms issues exactly the
// invoices the quote said were due today, line for line.

const tag = () => Math.random().toString(36).slice(2, 8);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('move-in quote API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  const get = (url: string, as: string | null = cookie) => platform.api.app.inject({ method: 'GET', url, headers: as ? { cookie: as } : {} });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });

  async function newUnit(monthlyRate = '120.00') {
    const unitId = randomUUID();
    const fields = {
      facilityId,
      unitNumber: `Q-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate,
      status: 'available' as const,
      description: null,
    };
    const added = await addUnit(context(), fields, unitId);
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    return unitId;
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    facilityId = randomUUID();
    // UTC, so the facility's today is the test's; an admin fee and invoices issued 5 days ahead.
    await addFacility(context(), { name: `Quote Test ${tag()}`, address: '1 Test Way', phone: null, managerName: null }, facilityId);
    await updateBillingSettings(context(), { ...defaultBillingSettings, adminFee: '25.00', issueDaysBefore: 5 }, facilityId);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('quotes a backdated Move In, and the lease gets exactly the invoices the quote said were due today, line for line', async () => {
    const unitId = await newUnit();
    const startDate = daysFromNow(-45);
    const response = await get(`/api/units/${unitId}/move-in-quote?startDate=${startDate}&monthlyRate=130.00&depositAmount=60.00`);
    expect(response.statusCode).toBe(200);
    const quote = MoveInQuote.parse(response.json());
    expect(quote).toMatchObject({ unitId, startDate, monthlyRate: '130.00', depositAmount: '60.00', today: daysFromNow(0) });
    // The move-in invoice and at least the month after it (45 days back).
    expect(quote.dueToday.length).toBeGreaterThanOrEqual(2);
    expect(quote.dueToday[0]!.lines.map((l) => [l.kind, l.amount]).slice(-2)).toEqual([
      ['deposit', '60.00'],
      ['admin_fee', '25.00'],
    ]);
    expect(quote.nextInvoice!.issueDate > quote.today).toBe(true);

    const customer = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie },
      payload: { firstName: 'Quinn', lastName: 'Quote', email: `quinn-${tag()}@example.com`, phone: '555-010-4455', facilityId },
    });
    expect(customer.statusCode).toBe(201);
    const moved = await platform.api.app.inject({
      method: 'POST',
      url: '/api/leases',
      headers: { cookie },
      payload: { customerId: customer.json().id, unitId, monthlyRate: '130.00', depositAmount: '60.00', startDate },
    });
    expect(moved.statusCode).toBe(201);
    const leaseId = moved.json().id as string;

    for (const quoted of quote.dueToday) {
      const { state } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(leaseId, quoted.periodStart)), invoiceAggregate);
      if (state.status !== 'current') throw new Error(`No invoice for ${quoted.periodStart}`);
      expect(state.fields.lines).toEqual(quoted.lines);
      expect({ amount: state.fields.amount, dueDate: state.fields.dueDate, description: state.fields.description }).toEqual({
        amount: quoted.total,
        dueDate: quoted.dueDate,
        description: quoted.description,
      });
    }
    // Nothing more: the lease is billed through the last quoted period, and the next invoice is not issued yet.
    const { state: lease } = await loadAggregate(platform.api.store, streams.lease(leaseId), leaseAggregate);
    expect(lease).toMatchObject({ billedThrough: quote.dueToday.at(-1)!.periodEnd });
    const next = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(leaseId, quote.nextInvoice!.periodStart)), invoiceAggregate);
    expect(next.state.status).toBe('none');
  });

  it("quotes at the unit's rate and without a deposit unless told; an auditor may read it", async () => {
    const unitId = await newUnit('99.00');
    const startDate = daysFromNow(2);
    const response = await get(`/api/units/${unitId}/move-in-quote?startDate=${startDate}`, await platform.signIn('auditor'));
    expect(response.statusCode).toBe(200);
    const quote = MoveInQuote.parse(response.json());
    expect(quote).toMatchObject({ monthlyRate: '99.00', depositAmount: null });
    expect(quote.dueToday.map((i) => i.kind)).toEqual(['move-in']);
    expect(quote.dueToday[0]!.lines.map((l) => l.kind)).not.toContain('deposit');
  });

  it('refuses bad terms with 400 naming the field, an unknown unit with 404, and anyone signed out with 401', async () => {
    const unitId = await newUnit();
    const today = daysFromNow(0);
    for (const [query, field] of [
      ['', 'startDate'],
      ['startDate=2026-02-30', 'startDate'],
      // Billing runs months past the start: a start in the calendar's last year cannot be billed (nor moved in).
      ['startDate=9999-12-15', 'startDate'],
      [`startDate=${today}&monthlyRate=0.00`, 'monthlyRate'],
      [`startDate=${today}&monthlyRate=100000.01`, 'monthlyRate'],
      [`startDate=${today}&monthlyRate=12.345`, 'monthlyRate'],
      [`startDate=${today}&depositAmount=-5.00`, 'depositAmount'],
      [`startDate=${today}&depositAmount=abc`, 'depositAmount'],
      [`startDate=${today}&discount=5`, 'discount'],
    ] as const) {
      const response = await get(`/api/units/${unitId}/move-in-quote?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
    const lastYear = await platform.api.app.inject({
      method: 'POST',
      url: '/api/leases',
      headers: { cookie },
      payload: { customerId: randomUUID(), unitId, monthlyRate: '120.00', startDate: '9999-12-15' },
    });
    expect([lastYear.statusCode, lastYear.json().field]).toEqual([400, 'startDate']);
    expect((await get(`/api/units/${randomUUID()}/move-in-quote?startDate=${today}`)).statusCode).toBe(404);
    expect((await get(`/api/units/not-a-unit/move-in-quote?startDate=${today}`)).statusCode).toBe(400);
    expect((await get(`/api/units/${unitId}/move-in-quote?startDate=${today}`, null)).statusCode).toBe(401);
  });

  it('quotes an available unit to anyone at its rate with no deposit; a unit taken is 409, an unknown one 404, a past day 400', async () => {
    const unitId = await newUnit('75.00');
    const moveInDate = daysFromNow(3);
    const response = await get(`/api/public/units/${unitId}/move-in-quote?moveInDate=${moveInDate}`, null);
    expect(response.statusCode).toBe(200);
    const quote = PublicMoveInQuote.parse(response.json());
    expect(response.json()).not.toHaveProperty('depositAmount');
    expect(quote).toMatchObject({ unitId, startDate: moveInDate, monthlyRate: '75.00' });
    expect(quote.dueToday[0]!.lines.map((l) => l.kind)).toEqual([...(moveInDate.endsWith('-01') ? ['rent'] : ['prorated_rent']), 'admin_fee']);
    // The same figures the desk is quoted for the same day with no deposit.
    const desk = MoveInQuote.parse((await get(`/api/units/${unitId}/move-in-quote?startDate=${moveInDate}`)).json());
    expect(quote.dueToday).toEqual(desk.dueToday);
    expect(quote.nextInvoice).toEqual(desk.nextInvoice);

    const reserved = await newUnit();
    await platform.api.app.inject({ method: 'PUT', url: `/api/units/${reserved}/status`, headers: { cookie }, payload: { status: 'maintenance' } });
    const taken = await get(`/api/public/units/${reserved}/move-in-quote?moveInDate=${moveInDate}`, null);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(UNIT_NOT_AVAILABLE_MESSAGE);
    expect((await get(`/api/public/units/${randomUUID()}/move-in-quote?moveInDate=${moveInDate}`, null)).statusCode).toBe(404);
    for (const query of ['', `moveInDate=${daysFromNow(-10)}`, 'moveInDate=tomorrow', 'moveInDate=9999-12-15', `moveInDate=${moveInDate}&depositAmount=0.00`]) {
      const refused = await get(`/api/public/units/${unitId}/move-in-quote?${query}`, null);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().field, query).toBe(query.includes('depositAmount') ? 'depositAmount' : 'moveInDate');
    }
  });
});
