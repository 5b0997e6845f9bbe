import { randomUUID } from 'node:crypto';
import { GateCode } from '@storage/contracts/access';
import { streams } from '@storage/contracts/events';
import { Lease, LeaseMoveOut } from '@storage/contracts/leases';
import { PortalUnit } from '@storage/contracts/portal';
import { addDays, todayIn } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { comparePositions } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A move-out dated after the facility's today is scheduled: the lease stays active, the unit
// occupied and off the public list, the gate code the renter's, until the facility's day (the
// billing day) moves them out on that date, once however often it runs, and a missed day's
// move-outs on the next run. Staff cancel it before the day. Today or earlier: a move-out now.

const ZONE = 'Pacific/Kiritimati';
const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

describe('a move-out on a later day', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  // The facility's today: a zone far from UTC, so a date that is "today" in UTC may not be its today.
  const today = () => todayIn(ZONE, new Date());

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = { cookie }) =>
    platform.api.app.inject({ method, url, ...(payload !== undefined && { payload: payload as object }), headers });
  const settled = async () => {
    expect(await platform.reactionsCaughtUp(30_000)).toBe(true);
  };
  /** The facility's day as the projector runs it, on `date`. */
  const runDay = async (date: string) => {
    const day = await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date(), { date, facilityId });
    await settled();
    return day.runs.reduce((sum, run) => sum + run.moveOuts.movedOut, 0);
  };

  async function moveIn() {
    const unit = await inject('POST', '/api/units', { unitNumber: `MO-${tag()}`, building: 'M', monthlyRate: '300.00', facilityId });
    expect(unit.statusCode, unit.body).toBe(201);
    const phone = `555-02${Math.floor(Math.random() * 10)}-${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    const customer = await inject('POST', '/api/customers', { firstName: 'Molly', lastName: `Later${tag()}`, email: `molly-${tag()}@example.com`, phone });
    expect(customer.statusCode, customer.body).toBe(201);
    const lease = await inject('POST', '/api/leases', {
      customerId: customer.json().id,
      unitId: unit.json().id,
      monthlyRate: '300.00',
      depositAmount: '50.00',
      startDate: addDays(today(), -40),
    });
    expect(lease.statusCode, lease.body).toBe(201);
    await settled();
    return {
      leaseId: lease.json().id as string,
      unitId: unit.json().id as string,
      customerId: customer.json().id as string,
      email: customer.json().email as string,
      phone,
    };
  }

  const lease = async (leaseId: string) => {
    const listed = (await inject('GET', '/api/leases?pageSize=100')).json() as Lease[];
    return listed.find((l) => l.id === leaseId)!;
  };
  const unitStatus = async (unitId: string) => (await inject('GET', `/api/units/${unitId}`)).json().status as string;
  const publiclyListed = async (unitId: string) =>
    ((await inject('GET', `/api/public/units/available?facilityId=${facilityId}`, undefined, {})).json() as Array<{ id: string }>).some((u) => u.id === unitId);
  const gateCodes = async (customerId: string) => z.array(GateCode).parse((await inject('GET', `/api/customers/${customerId}/gate-codes`)).json());
  const leaseEvents = async (leaseId: string) =>
    (await platform.api.store.readStream(streams.lease(leaseId))).map((e) => e.type).filter((type) => type !== 'lease_rent_billed');
  /** Everything written on the renter's own streams: their lease, unit and account. */
  const renterStreams = async (renter: { leaseId: string; unitId: string; customerId: string }) =>
    Promise.all([streams.lease(renter.leaseId), streams.unit(renter.unitId), streams.account(renter.customerId)].map((s) => platform.api.store.readStream(s)));
  /** Pays everything the renter owes at the desk (the move-in invoice and its deposit among it). */
  const payAll = async (customerId: string) => {
    const owed = await platform.api.pool.oneFirst(sql.type(z.object({ owed: z.string() }))`
      SELECT coalesce(sum(amount - amount_paid), 0)::numeric(20, 2)::text AS owed FROM invoices WHERE customer_id = ${customerId} AND status IN ('sent', 'overdue')`);
    const paid = await inject('POST', `/api/customers/${customerId}/payments`, { amount: owed, method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    await settled();
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn('owner');
    const facility = await inject('POST', '/api/facilities', { name: `Later Storage ${tag()}`, address: '1 Someday Rd', timeZone: ZONE });
    expect(facility.statusCode, facility.body).toBe(201);
    facilityId = facility.json().id;
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("schedules a move-out after the facility's today: the lease stays active, the unit occupied and off the public list, the gate code active", async () => {
    const renter = await moveIn();
    const endDate = addDays(today(), 10);
    const scheduled = await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate, deposit: 'apply' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(Lease.parse(scheduled.json())).toMatchObject({ id: renter.leaseId, isActive: true, endDate: null, moveOutDate: endDate });
    await settled();

    expect(await leaseEvents(renter.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled']);
    expect(await lease(renter.leaseId)).toMatchObject({ isActive: true, endDate: null, moveOutDate: endDate });
    expect(await unitStatus(renter.unitId)).toBe('occupied');
    expect(await publiclyListed(renter.unitId)).toBe(false);
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'active' }]);
    const calendar = LeaseMoveOut.parse((await inject('GET', `/api/leases/${renter.leaseId}/move-out`)).json());
    expect(calendar).toEqual({ today: today(), scheduled: { endDate, scheduledOn: today(), deposit: 'apply', depositMethod: null } });

    // The renter sees the day in the portal, beside the code that still opens the gate.
    const verified = await inject('POST', '/api/customer/verify', { email: renter.email, phoneLast4: renter.phone.slice(-4) }, {});
    expect(verified.statusCode, verified.body).toBe(200);
    const portalCookie = [verified.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('storage_session='))!
      .split(';')[0]!;
    const units = z.array(PortalUnit.strict()).parse((await inject('GET', '/api/customer/units', undefined, { cookie: portalCookie })).json());
    expect(units).toMatchObject([{ leaseId: renter.leaseId, moveOutDate: endDate, gateCode: { active: true } }]);

    // A repeat schedules nothing twice; another day waits for a cancel.
    expect((await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate, deposit: 'apply' })).statusCode).toBe(200);
    const otherDay = await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate: addDays(endDate, 5) });
    expect(otherDay.statusCode).toBe(409);
    expect(otherDay.json().message).toBe(`This lease already moves out on ${endDate}: cancel that move-out first`);
    expect(await leaseEvents(renter.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled']);
  });

  it('moves the renter out on the end date by the facility’s day, exactly once: the day before does nothing, a second run is a no-op', async () => {
    const renter = await moveIn();
    await payAll(renter.customerId);
    const endDate = addDays(today(), 3);
    expect((await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate, deposit: 'apply' })).statusCode).toBe(200);
    await settled();

    expect(await runDay(addDays(endDate, -1))).toBe(0);
    expect(await lease(renter.leaseId)).toMatchObject({ isActive: true, moveOutDate: endDate });

    expect(await runDay(endDate)).toBe(1);
    expect(await lease(renter.leaseId)).toMatchObject({ isActive: false, endDate, moveOutDate: null });
    expect(await unitStatus(renter.unitId)).toBe('available');
    expect(await publiclyListed(renter.unitId)).toBe(true);
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'suspended', suspendedReason: 'move_out' }]);
    // The deposit chosen when it was scheduled: applied to what the renter owes.
    const leaseStream = await platform.api.store.readStream(streams.lease(renter.leaseId));
    expect(leaseStream.find((e) => e.type === 'lease_deposit_settled')?.data).toMatchObject({ amount: '50.00', disposition: 'applied' });
    expect(leaseStream.find((e) => e.type === 'lease_ended')?.data).toMatchObject({ endDate });
    expect(leaseStream.find((e) => e.type === 'lease_ended')?.metadata.actor).toEqual({ type: 'system' });

    // Again on the day, and the next: nothing more is written on the renter's lease, unit or account.
    const written = await renterStreams(renter);
    expect(await runDay(endDate)).toBe(0);
    expect(await runDay(addDays(endDate, 1))).toBe(0);
    expect(await renterStreams(renter)).toEqual(written);
    expect(await leaseEvents(renter.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled', 'lease_ended', 'lease_deposit_settled']);
  });

  it('runs a missed day’s move-outs on the next day that runs, each on its own scheduled day, and once', async () => {
    const first = await moveIn();
    const second = await moveIn();
    const firstDay = addDays(today(), 2);
    const secondDay = addDays(today(), 4);
    expect((await inject('POST', `/api/leases/${second.leaseId}/end`, { endDate: secondDay })).statusCode).toBe(200);
    expect((await inject('POST', `/api/leases/${first.leaseId}/end`, { endDate: firstDay })).statusCode).toBe(200);
    await settled();

    // The projector was down on both days: the first run after them does both.
    const catchUp = addDays(today(), 7);
    expect(await runDay(catchUp)).toBe(2);
    expect(await lease(first.leaseId)).toMatchObject({ isActive: false, endDate: firstDay });
    expect(await lease(second.leaseId)).toMatchObject({ isActive: false, endDate: secondDay });
    // Earliest scheduled day first.
    const endedAt = async (leaseId: string) => (await platform.api.store.readStream(streams.lease(leaseId))).find((e) => e.type === 'lease_ended')!.position;
    expect(comparePositions(await endedAt(first.leaseId), await endedAt(second.leaseId))).toBeLessThan(0);
    expect(await runDay(catchUp)).toBe(0);
    expect(await leaseEvents(second.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled', 'lease_ended']);
  });

  it('cancels the move-out before its day: the lease runs on, and the day moves nobody out', async () => {
    const renter = await moveIn();
    const endDate = addDays(today(), 5);
    expect((await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate })).statusCode).toBe(200);
    const clerk = await platform.signIn('clerk');
    const cancelled = await inject('DELETE', `/api/leases/${renter.leaseId}/move-out`, { reason: 'Staying another month' }, { cookie: clerk });
    expect(cancelled.statusCode, cancelled.body).toBe(204);
    await settled();
    expect(await lease(renter.leaseId)).toMatchObject({ isActive: true, moveOutDate: null });
    expect(LeaseMoveOut.parse((await inject('GET', `/api/leases/${renter.leaseId}/move-out`)).json()).scheduled).toBeNull();
    const stream = await platform.api.store.readStream(streams.lease(renter.leaseId));
    expect(stream.find((e) => e.type === 'lease_move_out_cancelled')?.data).toMatchObject({ endDate, cancelledOn: today(), reason: 'Staying another month' });
    // Cancelled again: nothing more. An auditor cancels nothing.
    expect((await inject('DELETE', `/api/leases/${renter.leaseId}/move-out`)).statusCode).toBe(204);
    const auditor = await platform.signIn('auditor');
    expect((await inject('DELETE', `/api/leases/${renter.leaseId}/move-out`, undefined, { cookie: auditor })).statusCode).toBe(403);

    expect(await runDay(endDate)).toBe(0);
    expect(await lease(renter.leaseId)).toMatchObject({ isActive: true, endDate: null });
    expect(await unitStatus(renter.unitId)).toBe('occupied');
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'active' }]);
    expect(await leaseEvents(renter.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled', 'lease_move_out_cancelled']);
    // Scheduled again, on another day: a cancelled one is no obstacle.
    expect((await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate: addDays(endDate, 10) })).statusCode).toBe(200);
  });

  it('refuses a cancel once the day moved the renter out, and of a lease that does not exist', async () => {
    const renter = await moveIn();
    const endDate = addDays(today(), 1);
    expect((await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate })).statusCode).toBe(200);
    await runDay(endDate);
    const late = await inject('DELETE', `/api/leases/${renter.leaseId}/move-out`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(`This lease ended on ${endDate}`);
    expect((await inject('DELETE', `/api/leases/${randomUUID()}/move-out`)).statusCode).toBe(404);
  });

  it('moves the renter out at once for an end date of today or earlier, and ends a scheduled lease early when staff say so', async () => {
    const sameDay = await moveIn();
    const now = await inject('POST', `/api/leases/${sameDay.leaseId}/end`, { endDate: today() });
    expect(now.statusCode, now.body).toBe(200);
    expect(Lease.parse(now.json())).toMatchObject({ isActive: false, endDate: today(), moveOutDate: null });
    await settled();
    expect(await unitStatus(sameDay.unitId)).toBe('available');
    expect(await gateCodes(sameDay.customerId)).toMatchObject([{ status: 'suspended', suspendedReason: 'move_out' }]);
    expect(await leaseEvents(sameDay.leaseId)).toEqual(['lease_started', 'lease_ended']);

    const past = await moveIn();
    const yesterday = addDays(today(), -1);
    expect((await inject('POST', `/api/leases/${past.leaseId}/end`, { endDate: yesterday })).json()).toMatchObject({ isActive: false, endDate: yesterday });

    const early = await moveIn();
    expect((await inject('POST', `/api/leases/${early.leaseId}/end`, { endDate: addDays(today(), 20) })).statusCode).toBe(200);
    expect((await inject('POST', `/api/leases/${early.leaseId}/end`, { endDate: today() })).json()).toMatchObject({ isActive: false, endDate: today() });
    await settled();
    expect(await lease(early.leaseId)).toMatchObject({ isActive: false, endDate: today(), moveOutDate: null });
    // Its old day comes and goes (moving out the other tests' renters due by then): nothing more on it.
    await runDay(addDays(today(), 20));
    expect(await leaseEvents(early.leaseId)).toEqual(['lease_started', 'lease_move_out_scheduled', 'lease_ended']);
  });
});
