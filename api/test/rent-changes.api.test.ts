import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { LeaseRentChanges, RentChange, RentChangePlan, RentChangeTerms } from '@storage/contracts/rent-changes';
import { addDays, addMonths } from '@storage/domain/billing/calendar';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Rent changes through the API, against the real database: one lease's change (4xx naming the
// field, nothing written; one pending at a time; cancel), and a facility's bulk change (the
// preview is what the bulk request schedules; a retry schedules nothing twice).

const tag = () => Math.random().toString(36).slice(2, 8);

describe('rent changes API', () => {
  let platform: TestPlatform;
  let owner: string;
  let clerk: string;
  let facilityId: string;
  let terms: RentChangeTerms;
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, options: { as?: string; key?: string } = {}) =>
    platform.api.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { cookie: options.as ?? owner, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) expect(await platform.api.afterAppend(result.position, 10_000)).toBe(true);
  };
  const leaseEvents = async (leaseId: string) => (await platform.api.store.readStream(streams.lease(leaseId))).map((e) => e.type);
  const changeEvents = async (leaseId: string) => (await leaseEvents(leaseId)).filter((t) => t.startsWith('lease_rent_change'));
  /**
   * A date for a facility's bulk change that every lease takes, whatever today is: the first of the
   * month after the notice allows, past the rent already invoiced (in a month's last days the next
   * month is invoiced, and a lease refuses a date inside it).
   */
  const pastInvoiced = () => `${addMonths(terms.earliestEffectiveDate, 1).slice(0, 7)}-01`;
  /** The earliest effective date the lease's own terms offer (the Change Rent dialog's default). */
  const leaseEarliest = async (leaseId: string) =>
    LeaseRentChanges.parse((await inject('GET', `/api/leases/${leaseId}/rent-changes`)).json()).terms.earliestEffectiveDate;

  async function newFacility() {
    const id = randomUUID();
    await projected(await addFacility(context(), { name: `Rent ${tag()}`, address: '1 Way', phone: null, managerName: null, timeZone: 'America/Chicago' }, id));
    return id;
  }

  /** A renter moved in `monthsAgo` months before today (0: today), at `rate`. */
  async function moveIn(monthsAgo: number, rate = '120.00', facility = facilityId, unitNumber = `R-${tag()}`) {
    const unitId = randomUUID();
    const unit = {
      facilityId: facility,
      unitNumber,
      building: 'R',
      size: '10x10' as const,
      monthlyRate: rate,
      status: 'available' as const,
      description: null,
    };
    await projected(await addUnit(context(), unit, unitId));
    const customer = await inject('POST', '/api/customers', { firstName: 'Rita', lastName: `Rate${tag()}`, email: `rita-${tag()}-${tag()}@example.com` });
    expect(customer.statusCode).toBe(201);
    const lease = await inject('POST', '/api/leases', {
      customerId: customer.json().id,
      unitId,
      monthlyRate: rate,
      depositAmount: null,
      startDate: addMonths(terms.today, -monthsAgo),
    });
    expect(lease.statusCode).toBe(201);
    return { leaseId: lease.json().id as string, customerId: customer.json().id as string, unitNumber };
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await platform.signIn('owner');
    clerk = await platform.signIn('clerk');
    facilityId = await newFacility();
    const answer = await inject('GET', `/api/rent-changes/terms?facilityId=${facilityId}`);
    expect(answer.statusCode).toBe(200);
    terms = RentChangeTerms.parse(answer.json());
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("tells the earliest effective date: the facility's today and 30 days' notice by default", () => {
    expect(terms.noticeDays).toBe(30);
    expect(terms.earliestEffectiveDate).toBe(addDays(terms.today, 30));
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const { leaseId } = await moveIn(3);
    const earliest = await leaseEarliest(leaseId);
    const before = await leaseEvents(leaseId);
    const cases: Array<[unknown, string]> = [
      [{ newRate: '0.00', effectiveDate: earliest }, 'newRate'],
      [{ newRate: '12.345', effectiveDate: earliest }, 'newRate'],
      [{ newRate: 'abc', effectiveDate: earliest }, 'newRate'],
      [{ effectiveDate: earliest }, 'newRate'],
      [{ newRate: '130.00', effectiveDate: '2026-02-30' }, 'effectiveDate'],
      [{ newRate: '130.00', effectiveDate: addDays(terms.earliestEffectiveDate, -1) }, 'effectiveDate'],
      [{ newRate: '120.00', effectiveDate: earliest }, 'newRate'],
      [{ newRate: '130.00', effectiveDate: earliest, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await inject('POST', `/api/leases/${leaseId}/rent-changes`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field, JSON.stringify(body)).toBe(field);
    }
    const early = await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: addDays(terms.earliestEffectiveDate, -1) });
    expect(early.json().message).toContain(`on or after ${terms.earliestEffectiveDate}`);
    expect(await leaseEvents(leaseId)).toEqual(before);
    expect(
      (await inject('POST', `/api/leases/${randomUUID()}/rent-changes`, { newRate: '130.00', effectiveDate: terms.earliestEffectiveDate })).statusCode,
    ).toBe(404);
  });

  it("offers a lease the earliest date it takes: after the notice and after the rent already invoiced (the next month's, in a month's last days)", async () => {
    const { leaseId } = await moveIn(3);
    const earliest = await leaseEarliest(leaseId);
    expect(earliest >= terms.earliestEffectiveDate, `${earliest} against the notice's ${terms.earliestEffectiveDate}`).toBe(true);
    const billed = await platform.api.store.readStream(streams.lease(leaseId));
    const periodEnds = billed.filter((e) => e.type === 'lease_rent_billed').map((e) => (e.data as { periodEnd: string }).periodEnd);
    expect(periodEnds.length).toBeGreaterThan(0);
    expect(earliest > periodEnds.at(-1)!, `${earliest} after rent invoiced through ${periodEnds.at(-1)}`).toBe(true);
    const dayBefore = await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: addDays(earliest, -1) });
    expect(dayBefore.statusCode).toBe(400);
    expect(dayBefore.json().field).toBe('effectiveDate');
    expect((await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: earliest })).statusCode).toBe(201);
  });

  it('lets owners and managers change rent, not clerks', async () => {
    const { leaseId } = await moveIn(3);
    const body = { newRate: '130.00', effectiveDate: await leaseEarliest(leaseId) };
    expect((await inject('POST', `/api/leases/${leaseId}/rent-changes`, body, { as: clerk })).statusCode).toBe(403);
    expect((await inject('GET', `/api/leases/${leaseId}/rent-changes`, undefined, { as: clerk })).statusCode).toBe(200);
    expect(await changeEvents(leaseId)).toEqual([]);
  });

  it('schedules one pending change (409 for a second), once per Idempotency-Key, and cancels it before it takes effect', async () => {
    const { leaseId, customerId } = await moveIn(3);
    const body = { newRate: '132.50', effectiveDate: addDays(await leaseEarliest(leaseId), 3), reason: 'Market rate' };
    const key = randomUUID();
    const first = await inject('POST', `/api/leases/${leaseId}/rent-changes`, body, { key });
    expect(first.statusCode).toBe(201);
    const change = RentChange.parse(first.json());
    expect(change).toMatchObject({
      leaseId,
      customerId,
      currentRate: '120.00',
      newRate: '132.50',
      noticeDate: terms.today,
      effectiveDate: body.effectiveDate,
      reason: 'Market rate',
      status: 'pending',
    });
    const again = await inject('POST', `/api/leases/${leaseId}/rent-changes`, body, { key });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(change.id);
    expect(await changeEvents(leaseId)).toEqual(['lease_rent_change_scheduled']);

    const second = await inject('POST', `/api/leases/${leaseId}/rent-changes`, { ...body, newRate: '140.00' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toContain('132.50');

    const listed = LeaseRentChanges.parse((await inject('GET', `/api/leases/${leaseId}/rent-changes`)).json());
    expect(listed.changes.map((c) => [c.id, c.status])).toEqual([[change.id, 'pending']]);

    const cancelled = await inject('DELETE', `/api/leases/${leaseId}/rent-changes/${change.id}`, { reason: 'Kept the rate' });
    expect(cancelled.statusCode).toBe(204);
    expect((await inject('DELETE', `/api/leases/${leaseId}/rent-changes/${change.id}`)).statusCode).toBe(204);
    expect(await changeEvents(leaseId)).toEqual(['lease_rent_change_scheduled', 'lease_rent_change_cancelled']);
    const after = LeaseRentChanges.parse((await inject('GET', `/api/leases/${leaseId}/rent-changes`)).json());
    expect(after.changes[0]).toMatchObject({ id: change.id, status: 'cancelled', cancelReason: 'Kept the rate' });
    expect((await inject('DELETE', `/api/leases/${leaseId}/rent-changes/${randomUUID()}`)).statusCode).toBe(404);

    // With the first cancelled, another may be scheduled.
    expect((await inject('POST', `/api/leases/${leaseId}/rent-changes`, { ...body, newRate: '140.00' })).statusCode).toBe(201);
    const history = await inject('GET', `/api/history/lease/${leaseId}`);
    expect(history.statusCode).toBe(200);
    const words = (history.json().events as Array<{ description: string }>).map((e) => e.description);
    expect(words).toContain(
      `Rent change scheduled: $120.00 → $132.50 a month from ${dayText(body.effectiveDate)} (notice sent ${dayText(terms.today)}): Market rate`,
    );
    expect(words).toContain('Rent change cancelled: Kept the rate');
  });

  it('refuses a change to a lease that ended (409)', async () => {
    const { leaseId } = await moveIn(3);
    expect((await inject('POST', `/api/leases/${leaseId}/end`, { endDate: terms.today })).statusCode).toBe(200);
    const response = await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: terms.earliestEffectiveDate });
    expect(response.statusCode).toBe(409);
  });

  it("follows the facility's notice days", async () => {
    const longNotice = await newFacility();
    const saved = await inject('PUT', '/api/settings/billing', {
      facilityId: longNotice,
      settings: {
        billingDay: 'first',
        issueDaysBefore: 5,
        graceDays: 10,
        lateFee: { kind: 'fixed', amount: '25.00' },
        adminFee: '0.00',
        prorateFirstMonth: true,
        billNextMonthAfterDay: null,
        rentChangeNoticeDays: 45,
      },
    });
    expect(saved.statusCode).toBe(200);
    const { leaseId } = await moveIn(3, '120.00', longNotice);
    const tooSoon = await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: addDays(terms.today, 44) });
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json().field).toBe('effectiveDate');
    expect((await inject('POST', `/api/leases/${leaseId}/rent-changes`, { newRate: '130.00', effectiveDate: addDays(terms.today, 45) })).statusCode).toBe(201);
  });

  it("shows the rate in effect as the lease's monthly rate, and counts months at it from the change", async () => {
    const site = await newFacility();
    const { leaseId, customerId } = await moveIn(20, '100.00', site);
    // A change that took effect 5 months ago (written as the store holds it: the API only schedules ahead).
    const effectiveDate = addMonths(terms.today, -5);
    const changeId = randomUUID();
    const { position } = await platform.api.store.append(
      streams.lease(leaseId),
      [
        {
          id: randomUUID(),
          type: 'lease_rent_change_scheduled',
          data: {
            leaseId,
            customerId,
            changeId,
            currentRate: '100.00',
            newRate: '110.00',
            noticeDate: addDays(effectiveDate, -30),
            effectiveDate,
            reason: null,
          },
          metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await platform.api.afterAppend(position, 10_000)).toBe(true);
    expect((await inject('GET', `/api/leases?customerId=${customerId}`)).json()[0].monthlyRate).toBe('110.00');
    const roll = (await inject('GET', `/api/reports/rent-roll?facilityId=${site}`)).json() as { rows: Array<{ monthlyRate: string }> };
    expect(roll.rows.map((r) => r.monthlyRate)).toEqual(['110.00']);
    const changes = LeaseRentChanges.parse((await inject('GET', `/api/leases/${leaseId}/rent-changes`)).json()).changes;
    expect(changes.map((c) => [c.id, c.status])).toEqual([[changeId, 'in_effect']]);
    const plan = (minMonthsAtRate: number) =>
      inject('POST', '/api/rent-changes/preview', {
        facilityId: site,
        minMonthsAtRate,
        kind: 'amount',
        value: '5',
        effectiveDate: pastInvoiced(),
      });
    expect(RentChangePlan.parse((await plan(6)).json()).leases).toEqual([]);
    expect(RentChangePlan.parse((await plan(5)).json()).leases).toMatchObject([{ leaseId, currentRate: '110.00', newRate: '115.00', monthsAtRate: 5 }]);
  });

  describe('bulk', () => {
    let site: string;
    let long1: Awaited<ReturnType<typeof moveIn>>;
    let long2: Awaited<ReturnType<typeof moveIn>>;
    let pending: Awaited<ReturnType<typeof moveIn>>;
    const body = () => ({ facilityId: site, minMonthsAtRate: 12, kind: 'percent', value: '4.5', effectiveDate: pastInvoiced() });

    beforeAll(async () => {
      site = await newFacility();
      long1 = await moveIn(14, '99.99', site, 'B-1');
      long2 = await moveIn(13, '150.00', site, 'B-2');
      pending = await moveIn(20, '80.00', site, 'B-3');
      await moveIn(2, '120.00', site, 'B-4');
      const ended = await moveIn(24, '110.00', site, 'B-5');
      expect((await inject('POST', `/api/leases/${ended.leaseId}/end`, { endDate: terms.today })).statusCode).toBe(200);
      const change = await inject('POST', `/api/leases/${pending.leaseId}/rent-changes`, {
        newRate: '85.00',
        effectiveDate: await leaseEarliest(pending.leaseId),
      });
      expect(change.statusCode).toBe(201);
    });

    it('offers the first day every active lease takes, and refuses a bulk change the day before', async () => {
      const siteTerms = RentChangeTerms.parse((await inject('GET', `/api/rent-changes/terms?facilityId=${site}`)).json());
      for (const lease of [long1, long2]) expect(siteTerms.earliestEffectiveDate >= (await leaseEarliest(lease.leaseId))).toBe(true);
      const before = await inject('POST', '/api/rent-changes/preview', { ...body(), effectiveDate: addDays(siteTerms.earliestEffectiveDate, -1) });
      expect(before.statusCode).toBe(400);
      expect(before.json().field).toBe('effectiveDate');
      expect(before.json().message).toContain(`on or after ${siteTerms.earliestEffectiveDate}`);
      expect((await inject('POST', '/api/rent-changes/preview', { ...body(), effectiveDate: siteTerms.earliestEffectiveDate })).statusCode).toBe(200);
    });

    it('refuses bad input naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ ...body(), value: '101' }, 'value'],
        [{ ...body(), value: '0' }, 'value'],
        [{ ...body(), kind: 'double' }, 'kind'],
        [{ ...body(), minMonthsAtRate: -1 }, 'minMonthsAtRate'],
        [{ ...body(), minMonthsAtRate: 1.5 }, 'minMonthsAtRate'],
        [{ ...body(), effectiveDate: terms.today }, 'effectiveDate'],
        [{ ...body(), facilityId: randomUUID() }, 'facilityId'],
      ];
      for (const [payload, field] of cases) {
        const response = await inject('POST', '/api/rent-changes/preview', payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().field, JSON.stringify(payload)).toBe(field);
      }
      const noKey = await inject('POST', '/api/rent-changes/bulk', body());
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json().field).toBe('Idempotency-Key');
      expect((await inject('POST', '/api/rent-changes/bulk', body(), { as: clerk, key: randomUUID() })).statusCode).toBe(403);
    });

    it('previews the leases at the same rate long enough, with new rates and totals; a pending change is skipped', async () => {
      const response = await inject('POST', '/api/rent-changes/preview', body());
      expect(response.statusCode).toBe(200);
      const plan = RentChangePlan.parse(response.json());
      expect(plan.leases.map((l) => [l.unit.unitNumber, l.currentRate, l.newRate, l.monthsAtRate, l.changeId])).toEqual([
        ['B-1', '99.99', '104.49', 14, null],
        ['B-2', '150.00', '156.75', 13, null],
      ]);
      expect(plan.skipped.map((s) => [s.unit.unitNumber, s.leaseId])).toEqual([['B-3', pending.leaseId]]);
      expect(plan.totals).toEqual({ leases: 2, currentMonthly: '249.99', newMonthly: '261.24', difference: '11.25' });
      const byAmount = RentChangePlan.parse(
        (await inject('POST', '/api/rent-changes/preview', { ...body(), kind: 'amount', value: '10', minMonthsAtRate: 0 })).json(),
      );
      expect(byAmount.leases.map((l) => [l.unit.unitNumber, l.newRate])).toEqual([
        ['B-1', '109.99'],
        ['B-2', '160.00'],
        ['B-4', '130.00'],
      ]);
      expect(await changeEvents(long1.leaseId)).toEqual([]);
    });

    it('schedules exactly what the preview showed, and a retry of the request schedules nothing twice', async () => {
      const preview = RentChangePlan.parse((await inject('POST', '/api/rent-changes/preview', body())).json());
      const key = randomUUID();
      const response = await inject('POST', '/api/rent-changes/bulk', { ...body(), reason: 'Yearly review' }, { key });
      expect(response.statusCode).toBe(201);
      const done = RentChangePlan.parse(response.json());
      expect(done.leases.map(({ changeId: _id, ...rest }) => rest)).toEqual(preview.leases.map(({ changeId: _id, ...rest }) => rest));
      expect(done.leases.every((l) => l.changeId !== null)).toBe(true);
      expect(done.skipped.map((s) => s.leaseId)).toEqual([pending.leaseId]);
      expect(done.totals).toEqual(preview.totals);
      for (const { leaseId } of [long1, long2]) expect(await changeEvents(leaseId)).toEqual(['lease_rent_change_scheduled']);
      const scheduled = LeaseRentChanges.parse((await inject('GET', `/api/leases/${long1.leaseId}/rent-changes`)).json()).changes;
      expect(scheduled).toMatchObject([{ id: done.leases[0]!.changeId, newRate: '104.49', reason: 'Yearly review', status: 'pending' }]);

      // The same key again: the first answer, nothing appended.
      const replay = await inject('POST', '/api/rent-changes/bulk', { ...body(), reason: 'Yearly review' }, { key });
      expect(replay.statusCode).toBe(201);
      expect(replay.json()).toEqual(response.json());
      // A retry that runs again (its first answer lost, as after a crash): the same change ids, nothing appended twice.
      await platform.api.pool.query(sql.unsafe`DELETE FROM idempotency_keys WHERE key = ${key}`);
      const rerun = await inject('POST', '/api/rent-changes/bulk', { ...body(), reason: 'Yearly review' }, { key });
      expect(rerun.statusCode).toBe(201);
      expect(RentChangePlan.parse(rerun.json()).leases.map((l) => l.changeId)).toEqual(done.leases.map((l) => l.changeId));
      for (const { leaseId } of [long1, long2]) expect(await changeEvents(leaseId)).toEqual(['lease_rent_change_scheduled']);

      // Another request: every lease has a change pending now, so it schedules nothing.
      const other = RentChangePlan.parse((await inject('POST', '/api/rent-changes/bulk', body(), { key: randomUUID() })).json());
      expect(other.leases).toEqual([]);
      expect(other.skipped.map((s) => s.unit.unitNumber)).toEqual(['B-1', 'B-2', 'B-3']);
      for (const { leaseId } of [long1, long2]) expect(await changeEvents(leaseId)).toEqual(['lease_rent_change_scheduled']);
    });
  });
});

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
function dayText(date: string) {
  return day.format(new Date(`${date}T00:00:00Z`));
}
