import { randomUUID } from 'node:crypto';
import { GateCode } from '@storage/contracts/access';
import { DelinquencyTimeline } from '@storage/contracts/delinquency';
import { OutboxMessage } from '@storage/contracts/messages';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { addFacility } from '@storage/domain/facilities/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The whole loop of issue 13 on one renter, as the product runs it: a move-in (gate code, welcome),
// the billing day run on each day of the schedule (late notice, lockout, pre-lien notice, lien),
// the payment of everything owed, and access back — each step once, each message once, through
// the projector's reactions and the outbox worker, to a real SMTP server the test starts.

const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

describe('a renter from move-in through every delinquency step to lien, and back in on payment', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let cookie: string;
  const facilityId = randomUUID();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      billing: false,
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'Journey Storage <office@journey.test>', publicUrl: 'https://journey.test' },
    });
    cookie = await platform.signIn('owner');
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    await addFacility(ctx, { name: `Journey ${tag()}`, address: '1 Journey Rd', phone: null, managerName: null }, facilityId);
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie } });

  const settled = async () => expect(await platform.reactionsCaughtUp(30_000)).toBe(true);

  /** The facility's billing day on `date` (and each day it missed before it), with what its days did together. */
  async function billingDay(date: string) {
    const day = await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date(), { date, facilityId });
    if (day.position) await platform.api.afterAppend(day.position, 10_000);
    await settled();
    return { delinquencySteps: day.runs.reduce((n, run) => n + run.delinquencySteps, 0) };
  }

  const timeline = async (customerId: string) => {
    const response = await call('GET', `/api/customers/${customerId}/delinquency`);
    expect(response.statusCode, response.body).toBe(200);
    return DelinquencyTimeline.parse(response.json());
  };
  const lockDesired = (lockId: string) =>
    platform.api.pool.oneFirst(sql.type(z.object({ desired_state: z.string() }))`SELECT desired_state FROM locks WHERE id = ${lockId}`);
  const gateCodes = async (customerId: string) => z.array(GateCode).parse((await call('GET', `/api/customers/${customerId}/gate-codes`)).json());
  const messages = async (customerId: string) =>
    z.array(OutboxMessage).parse((await call('GET', `/api/messages?customerId=${customerId}&pageSize=100`)).json());
  const countsByTemplate = (list: OutboxMessage[]) => {
    const counts: Record<string, number> = {};
    for (const m of list) counts[m.templateKey] = (counts[m.templateKey] ?? 0) + 1;
    return counts;
  };
  const delivered = (email: string) => smtp.received.filter((m) => m.to.includes(email));

  it('takes each step once on its day, locks the renter out, and lets them back in within seconds of paying, telling them each time once', async () => {
    const unit = await call('POST', '/api/units', { unitNumber: `J-${tag()}`, building: 'J', monthlyRate: '100.00', facilityId });
    expect(unit.statusCode, unit.body).toBe(201);
    const lock = await call('POST', '/api/locks', { lockId: `JL-${tag()}`, unitId: unit.json().id });
    expect(lock.statusCode, lock.body).toBe(201);
    const lockId = lock.json().id as string;
    const email = `journey-${tag().toLowerCase()}@renter.test`;
    const customer = await call('POST', '/api/customers', { firstName: 'Jo', lastName: 'Journey', email, phone: '555-0142', facilityId });
    expect(customer.statusCode, customer.body).toBe(201);
    const customerId = customer.json().id as string;
    // Moved in today: the billing days ahead take the schedule's steps (an invoice billed today is
    // never late for days before it).
    const start = new Date().toISOString().slice(0, 10);
    const lease = await call('POST', '/api/leases', { customerId, unitId: unit.json().id, monthlyRate: '100.00', depositAmount: null, startDate: start });
    expect(lease.statusCode, lease.body).toBe(201);
    await settled();

    // Moved in: a gate code that opens the gate, a lock open to them, a welcome with the code.
    const [code] = await gateCodes(customerId);
    expect(code).toMatchObject({ status: 'active' });
    expect(await lockDesired(lockId)).toBe('normal');
    await expect.poll(() => delivered(email).some((m) => m.raw.includes('Welcome to')), { timeout: 15_000 }).toBe(true);

    // The oldest unpaid invoice's due date drives the schedule (the default: late notice on day 5,
    // lockout 15, pre-lien notice 30, lien 45, auction 60).
    const invoices = z
      .array(z.object({ id: z.string(), dueDate: z.string(), status: z.string() }))
      .parse((await call('GET', `/api/invoices?customerId=${customerId}&sort=dueDate&order=asc`)).json());
    const due = invoices.filter((i) => i.status === 'sent' || i.status === 'overdue')[0]!.dueDate;
    const expectSteps = async (kinds: string[]) => expect((await timeline(customerId)).steps.map((s) => s.kind)).toEqual(kinds);

    await billingDay(addDays(due, 4));
    await expectSteps([]);
    expect((await billingDay(addDays(due, 5))).delinquencySteps).toBe(1);
    await expectSteps(['late_notice']);
    expect(await lockDesired(lockId)).toBe('normal');

    expect((await billingDay(addDays(due, 15))).delinquencySteps).toBe(1);
    await expectSteps(['late_notice', 'lockout']);
    expect(await lockDesired(lockId)).toBe('overlocked');
    expect((await gateCodes(customerId))[0]).toMatchObject({ status: 'suspended' });

    await billingDay(addDays(due, 30));
    await billingDay(addDays(due, 45));
    // Again on the same day, or a day already passed: nothing more.
    expect((await billingDay(addDays(due, 45))).delinquencySteps).toBe(0);
    expect((await billingDay(addDays(due, 30))).delinquencySteps).toBe(0);
    const behind = await timeline(customerId);
    expect(behind.status).toBe('delinquent');
    expect(behind.steps.map((s) => [s.kind, s.date])).toEqual([
      ['late_notice', addDays(due, 5)],
      ['lockout', addDays(due, 15)],
      ['pre_lien_notice', addDays(due, 30)],
      ['lien', addDays(due, 45)],
    ]);
    const auctionDay = addDays(due, 60);
    expect(behind.nextStep).toMatchObject({ kind: 'auction_scheduled', date: [auctionDay, behind.today].sort().at(-1) });
    expect(Number(behind.pastDue)).toBeGreaterThan(0);
    const letter = await call('GET', `/api/customers/${customerId}/pre-lien-letter.pdf`);
    expect(letter.statusCode).toBe(200);
    expect(letter.headers['content-type']).toContain('application/pdf');

    // The renter pays everything they owe: the schedule stops and access is back within seconds.
    const owed = await platform.api.pool.oneFirst(sql.type(z.object({ owed: z.string() }))`
      SELECT coalesce(sum(amount - amount_paid), 0)::numeric(20, 2)::text AS owed FROM invoices WHERE customer_id = ${customerId} AND status IN ('sent', 'overdue')`);
    const paid = await call('POST', `/api/customers/${customerId}/payments`, { amount: owed, method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    const paidAt = Date.now();
    await expect.poll(() => lockDesired(lockId), { timeout: 10_000, interval: 20 }).toBe('normal');
    expect(Date.now() - paidAt).toBeLessThan(5_000);
    await settled();
    expect((await gateCodes(customerId))[0]).toMatchObject({ status: 'active' });
    const after = await timeline(customerId);
    expect(after.status).toBe('current');
    expect(after.nextStep).toBeNull();
    expect(after.events.map((e) => e.type)).toEqual(['step_taken', 'step_taken', 'step_taken', 'step_taken', 'cleared']);

    // Each message once, all delivered through the SMTP server: the steps with a notice (a lien has
    // none), the receipt and the restore.
    await expect.poll(async () => (await messages(customerId)).every((m) => m.status === 'sent'), { timeout: 15_000 }).toBe(true);
    const counts = countsByTemplate(await messages(customerId));
    expect(counts).toMatchObject({ move_in_welcome: 1, late_notice: 1, lockout_notice: 1, pre_lien_notice: 1, payment_receipt: 1, access_restored: 1 });
    expect(delivered(email)).toHaveLength((await messages(customerId)).length);
  });
});
