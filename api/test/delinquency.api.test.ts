import { randomUUID } from 'node:crypto';
import { DelinquencySettingsAnswer, DelinquencyTimeline, defaultDelinquencySteps } from '@storage/contracts/delinquency';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { type CommandContext, loadAggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { delinquencyClearingReaction } from '@storage/projector/reactions/delinquency';
import { reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { renterFields } from '@storage/testing/renters';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The delinquency schedule end to end on the real database: its steps fire on their days once (a
// rerun adds nothing, a catch-up takes the missed ones in order, each on its day), a pause holds
// them, an invoice owed again by a refund or billed for past days counts from that day, a payment
// clears the renter through the clearing reaction within seconds (a partial one only when it
// brings the past-due balance to the lockout's threshold), and bad input is a 4xx that writes nothing.

describe('delinquency schedule', () => {
  let platform: TestPlatform;
  /** Online reservations are confirmed from the link mailed to the email typed. */
  let smtp: TestSmtpServer;
  const cookies: Record<string, string> = {};
  // Renters of no facility: their days run in UTC.
  const today = new Date().toISOString().slice(0, 10);
  const ctx = (now = new Date()): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  const settle = async <T extends { position: Position | null }>(result: T): Promise<T> => {
    if (result.position) expect(await platform.api.afterAppend(result.position, 10_000)).toBe(true);
    return result;
  };
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, role = 'owner', headers: Record<string, string> = {}) =>
    platform.api.app.inject({ method, url, ...(payload !== undefined && { payload: payload as object }), headers: { cookie: cookies[role]!, ...headers } });
  const billingDay = async (date: string, facilityId?: string) => {
    const day = await settle(
      await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date(), { date, ...(facilityId && { facilityId }) }),
    );
    return day.runs.reduce((n, run) => n + run.delinquencySteps, 0);
  };
  const delinquencyEvents = async (customerId: string) => (await platform.api.store.readStream(streams.delinquency(customerId))).map(toDomainEvent);
  const stepsOf = (events: DomainEvent[]) =>
    events.flatMap((e) => (e.type === 'delinquency_step_taken' ? [`${e.data.kind}@${e.data.day} ${e.data.date}`] : []));
  const timeline = async (customerId: string) => DelinquencyTimeline.parse((await request('GET', `/api/customers/${customerId}/delinquency`)).json());

  async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({ billing: false, config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    for (const role of ['owner', 'manager', 'clerk'] as const) cookies[role] = await platform.signIn(role);
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  /** A renter (of no facility, or of `facilityId`) owing `amount` on an invoice due `dueDate`, sent five days before it was due. */
  async function renterOwing(amount: string, dueDate: string, facilityId: string | null = null) {
    const tag = randomUUID().slice(0, 8);
    const customer = await settle(await addCustomer(ctx(), renterFields('Dee', 'Linquent', tag, { facilityId })));
    if (customer.state.status === 'none') throw new Error('no customer');
    const made = await generateInvoice(ctx(), {
      invoiceNumber: `INV-D-${tag}`,
      customerId: customer.state.customerId,
      leaseId: null,
      amount,
      dueDate,
      status: 'draft',
      description: null,
    });
    if (made.state.status === 'none') throw new Error('no invoice');
    await settle(await sendInvoice(ctx(new Date(`${addDays(dueDate, -5)}T12:00:00Z`)), made.state.invoiceId));
    return { customerId: customer.state.customerId, invoiceId: made.state.invoiceId, invoiceNumber: `INV-D-${tag}` };
  }

  it('fires each step on its day once, a rerun adds nothing, and a catch-up takes the missed steps in order, each on its day', async () => {
    const due = addDays(today, -40);
    const { customerId, invoiceId, invoiceNumber } = await renterOwing('120.00', due);
    expect(await billingDay(addDays(due, 4))).toBe(0);
    expect(await delinquencyEvents(customerId)).toEqual([]);
    await billingDay(addDays(due, 5));
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([`late_notice@5 ${addDays(due, 5)}`]);
    expect(await billingDay(addDays(due, 5))).toBe(0);
    expect(await delinquencyEvents(customerId)).toHaveLength(1);
    // Days 15 and 30 have passed by day 40: the run catches up the days it missed, one after the
    // other, so each step is taken on its own day, never two at once.
    await billingDay(today);
    const events = await delinquencyEvents(customerId);
    expect(stepsOf(events)).toEqual([`late_notice@5 ${addDays(due, 5)}`, `lockout@15 ${addDays(due, 15)}`, `pre_lien_notice@30 ${addDays(due, 30)}`]);
    expect(events[1]).toEqual({
      type: 'delinquency_step_taken',
      data: { customerId, kind: 'lockout', day: 15, invoiceId, date: addDays(due, 15), pastDue: '120.00' },
    });
    expect(await billingDay(today)).toBe(0);

    const shown = await timeline(customerId);
    expect(shown).toMatchObject({ status: 'delinquent', pastDue: '120.00', pause: null });
    expect(shown.steps.map((s) => [s.label, s.invoiceNumber, s.day])).toEqual([
      ['Late Notice', invoiceNumber, 5],
      ['Lockout', invoiceNumber, 15],
      ['Pre-Lien Notice', invoiceNumber, 30],
    ]);
    expect(shown.nextStep).toMatchObject({ kind: 'lien', label: 'Lien', date: addDays(due, 45), invoiceNumber, amountToStop: '120.00' });
  });

  it('holds the steps while paused, and takes them once resumed, one at a time', async () => {
    const due = addDays(today, -20);
    const { customerId } = await renterOwing('80.00', due);
    const key = { 'idempotency-key': `pause-${randomUUID()}` };
    const pause = { until: addDays(today, 10), reason: 'Promised to pay on payday' };
    const paused = await request('POST', `/api/customers/${customerId}/delinquency/pause`, pause, 'manager', key);
    expect(paused.statusCode).toBe(200);
    expect(DelinquencyTimeline.parse(paused.json())).toMatchObject({
      status: 'paused',
      pause,
      nextStep: { kind: 'late_notice', date: addDays(today, 11), amountToStop: '80.00' },
    });
    // A repeat with the key answers the same and records nothing more.
    expect((await request('POST', `/api/customers/${customerId}/delinquency/pause`, pause, 'manager', key)).statusCode).toBe(200);
    expect(await delinquencyEvents(customerId)).toHaveLength(1);

    expect(await billingDay(today)).toBe(0);
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([]);

    const resumed = await request('POST', `/api/customers/${customerId}/delinquency/resume`, { reason: 'Did not pay' }, 'owner');
    expect(resumed.statusCode).toBe(200);
    expect(DelinquencyTimeline.parse(resumed.json()).status).toBe('current');
    await billingDay(today);
    // The late notice now; the lockout its ten days after it, not on the same day.
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([`late_notice@5 ${today}`]);
    expect((await timeline(customerId)).events.map((e) => e.type)).toEqual(['paused', 'resumed', 'step_taken']);
    expect((await timeline(customerId)).nextStep).toMatchObject({ kind: 'lockout', date: addDays(today, 10) });
  });

  it('clears a renter at once when a payment brings the past-due balance to 0.00 (the clearing reaction), once', async () => {
    const { customerId } = await renterOwing('145.00', addDays(today, -16));
    await billingDay(today);
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([`late_notice@5 ${today}`]);

    const paid = await request('POST', `/api/customers/${customerId}/payments`, { amount: '145.00', method: 'cash' }, 'clerk');
    expect(paid.statusCode).toBe(201);
    const cleared = await eventually(async () => (await delinquencyEvents(customerId)).find((e) => e.type === 'delinquency_cleared'));
    expect(cleared).toEqual({
      type: 'delinquency_cleared',
      data: { customerId, date: today, pastDue: '0.00', reason: 'Desk payment of $145.00 (Cash)' },
    });
    const recorded = await platform.api.store.readStream(streams.delinquency(customerId));
    // The clear names the payment's event as its cause; seeing that event again decides nothing.
    const causeId = recorded.at(-1)!.metadata.causationId!;
    const causeStream = await platform.api.pool.oneFirst(
      sql.type(z.object({ stream_name: z.string() }))`SELECT stream_name FROM event_store.events WHERE id = ${causeId}::uuid`,
    );
    const causeEvent = (await platform.api.store.readStream(causeStream)).find((e) => e.id === causeId)!;
    expect(causeEvent.type).toBe('desk_payment_received');
    await delinquencyClearingReaction.react(
      {
        ...toDomainEvent(causeEvent),
        id: causeEvent.id,
        streamName: causeEvent.streamName,
        revision: causeEvent.revision,
        metadata: causeEvent.metadata,
        position: causeEvent.position,
        recordedAt: causeEvent.recordedAt,
      },
      { store: platform.api.store, pool: platform.api.pool, now: new Date() },
    );
    // Every reaction has acted on everything written, the repeat's own writes too.
    expect(await platform.reactionsCaughtUp()).toBe(true);
    expect((await delinquencyEvents(customerId)).filter((e) => e.type === 'delinquency_cleared')).toHaveLength(1);
    expect(await timeline(customerId)).toMatchObject({ status: 'current', pastDue: '0.00', nextStep: null });
    expect(await billingDay(today)).toBe(0);
  });

  it('clears on a partial payment only when it brings the past-due balance to the lockout threshold', async () => {
    const schedule = [
      { kind: 'late_notice', day: 5, threshold: '0.00' },
      { kind: 'lockout', day: 15, threshold: '50' },
    ];
    const saved = await request('PUT', '/api/settings/delinquency', { facilityId: null, steps: schedule });
    expect(saved.statusCode).toBe(200);
    expect(DelinquencySettingsAnswer.parse(saved.json()).effective).toEqual([
      { kind: 'late_notice', day: 5, threshold: '0.00' },
      { kind: 'lockout', day: 15, threshold: '50.00' },
    ]);
    try {
      const { customerId } = await renterOwing('120.00', addDays(today, -16));
      await billingDay(today);
      expect(stepsOf(await delinquencyEvents(customerId))).toEqual([`late_notice@5 ${today}`]);
      expect((await timeline(customerId)).nextStep).toMatchObject({ kind: 'lockout', date: addDays(today, 10), amountToStop: '70.00' });

      expect((await request('POST', `/api/customers/${customerId}/payments`, { amount: '60.00', method: 'cash' }, 'clerk')).statusCode).toBe(201);
      // Wait for the reaction to have seen the payment: its checkpoint passes it without clearing.
      expect(await platform.reactionsCaughtUp()).toBe(true);
      expect((await delinquencyEvents(customerId)).some((e) => e.type === 'delinquency_cleared')).toBe(false);

      expect((await request('POST', `/api/customers/${customerId}/payments`, { amount: '10.00', method: 'check' }, 'clerk')).statusCode).toBe(201);
      const cleared = await eventually(async () => (await delinquencyEvents(customerId)).find((e) => e.type === 'delinquency_cleared'));
      expect(cleared).toMatchObject({ data: { pastDue: '50.00', reason: 'Desk payment of $10.00 (Check)' } });
    } finally {
      expect((await request('PUT', '/api/settings/delinquency', { facilityId: null, steps: null })).statusCode).toBe(200);
    }
  });

  /** A facility of the test's own (UTC), so its billing days touch only its renters. */
  async function facility() {
    const made = await addFacility(ctx(), { name: `Story ${randomUUID().slice(0, 6)}`, address: '1 Way', phone: null, managerName: null, timeZone: 'UTC' });
    if (made.state.status !== 'current') throw new Error('no facility');
    await settle(made);
    return made.state.facilityId;
  }

  it('counts an old paid invoice a refund reopened from the day it was reopened, and takes its steps one by one on their days', async () => {
    const facilityId = await facility();
    // Due two months ago, sent before it, paid: then $20 of it is given back today.
    const { customerId, invoiceId } = await renterOwing('120.00', addDays(today, -60), facilityId);
    expect((await request('POST', `/api/customers/${customerId}/payments`, { amount: '120.00', method: 'cash' }, 'clerk')).statusCode).toBe(201);
    const payment = (await platform.api.store.readStream(streams.invoice(invoiceId))).find((e) => e.type === 'payment_received')!;
    await eventually(async () => (await request('GET', `/api/invoices/${invoiceId}`)).json().status === 'paid');
    const refunded = await request('POST', `/api/payments/${(payment.data as { paymentId: string }).paymentId}/refund`, {
      amount: '20.00',
      reason: 'Gate broken a week',
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    await eventually(async () => (await request('GET', `/api/invoices/${invoiceId}`)).json().status === 'overdue');

    // Every step's day after the due date has long passed: none is taken today, nor before the
    // late notice's day after the reopening.
    expect(await billingDay(today, facilityId)).toBe(0);
    expect(await timeline(customerId)).toMatchObject({ status: 'current', pastDue: '20.00', nextStep: { kind: 'late_notice', date: addDays(today, 5) } });
    expect(await billingDay(addDays(today, 4), facilityId)).toBe(0);
    // A run that comes back after a month takes the steps on their days, each after the one before it.
    await billingDay(addDays(today, 35), facilityId);
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([
      `late_notice@5 ${addDays(today, 5)}`,
      `lockout@15 ${addDays(today, 15)}`,
      `pre_lien_notice@30 ${addDays(today, 30)}`,
    ]);
  });

  it('counts a move-in converted from a reservation with a past date from the day it was billed', async () => {
    const facilityId = await facility();
    const unitId = randomUUID();
    await settle(
      await addUnit(
        ctx(),
        { facilityId, unitNumber: `S-${randomUUID().slice(0, 6)}`, building: 'S', size: '5x5', monthlyRate: '90.00', status: 'available', description: null },
        unitId,
      ),
    );
    const tag = randomUUID().slice(0, 8);
    const reserved = await reserveOnline(
      platform.api.app,
      smtp,
      {
        unitId,
        customerData: {
          ...{ firstName: 'Pat', lastName: `Past${tag}`, email: `pat-${tag}@example.com`, phone: '555-0177', address: '7 Elm' },
          ...{ emergencyContact: '', emergencyPhone: '', moveInDate: addDays(today, 1), specialRequests: '' },
        },
      },
      '10.7.0.1',
    );
    expect(reserved.statusCode, reserved.body).toBe(200);
    const { reservationId } = reserved.json() as { reservationId: string };
    // Staff convert it six weeks late, with the date the renter really moved in.
    const converted = await request('POST', `/api/reservations/${reservationId}/convert`, { startDate: addDays(today, -42) });
    expect(converted.statusCode, converted.body).toBe(200);
    const { leaseId } = converted.json() as { leaseId: string };
    const { state: lease } = await loadAggregate(platform.api.store, streams.lease(leaseId), leaseAggregate);
    if (lease.status !== 'active') throw new Error('no lease');
    const customerId = lease.terms.customerId;
    await eventually(async () => (await timeline(customerId)).pastDue !== '0.00');

    // Its invoices are due weeks ago but were billed today: nothing today, the late notice on day 5 from today.
    expect(await billingDay(today, facilityId)).toBe(0);
    expect((await timeline(customerId)).nextStep).toMatchObject({ kind: 'late_notice', date: addDays(today, 5) });
    expect(await billingDay(addDays(today, 5), facilityId)).toBe(1);
    expect(stepsOf(await delinquencyEvents(customerId))).toEqual([`late_notice@5 ${addDays(today, 5)}`]);
  });

  it('answers bad input with a 4xx naming the field, and writes nothing', async () => {
    const { customerId } = await renterOwing('30.00', addDays(today, -1));
    const put = (steps: unknown, role = 'owner') => request('PUT', '/api/settings/delinquency', { facilityId: null, steps }, role);
    const bad = async (response: Awaited<ReturnType<typeof put>>, status: number, message: RegExp) => {
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toMatch(message);
    };
    await bad(
      await put([
        { kind: 'lockout', day: 15, threshold: '0.00' },
        { kind: 'lockout', day: 20, threshold: '0.00' },
      ]),
      400,
      /^steps\.1\.kind: lockout is already/,
    );
    await bad(
      await put([
        { kind: 'late_notice', day: 15, threshold: '0.00' },
        { kind: 'lockout', day: 15, threshold: '0.00' },
      ]),
      400,
      /^steps\.1\.day: must be after/,
    );
    await bad(await put([{ kind: 'lockout', day: 0, threshold: '0.00' }]), 400, /^steps\.0\.day: /);
    await bad(await put([{ kind: 'lockout', day: 15, threshold: '-5.00' }]), 400, /^steps\.0\.threshold: must not be negative/);
    await bad(await put([{ kind: 'lockout', day: 15, threshold: 'ten' }]), 400, /^steps\.0\.threshold: /);
    await bad(await put([{ kind: 'eviction', day: 15, threshold: '0.00' }]), 400, /^steps\.0\.kind: must be one of/);
    await bad(await put([{ kind: 'lockout', day: 15, threshold: '0.00' }], 'manager'), 403, /./);
    await bad(await request('PUT', '/api/settings/delinquency', { facilityId: randomUUID(), steps: null }), 404, /Facility not found/);
    expect(DelinquencySettingsAnswer.parse((await request('GET', '/api/settings/delinquency')).json())).toEqual({
      business: null,
      facility: null,
      effective: defaultDelinquencySteps,
    });

    const pause = (body: unknown, role = 'owner', id = customerId) => request('POST', `/api/customers/${id}/delinquency/pause`, body, role);
    await bad(await pause({ until: today, reason: 'Promise' }), 400, /^until: must be after today/);
    await bad(await pause({ until: addDays(today, 91), reason: 'Promise' }), 400, /^until: must be at most 90 days ahead/);
    await bad(await pause({ until: '2026-02-30', reason: 'Promise' }), 400, /^until: /);
    await bad(await pause({ until: addDays(today, 5) }), 400, /^reason: is required/);
    await bad(await pause({ until: addDays(today, 5), reason: '   ' }), 400, /^reason: is required/);
    await bad(await pause({ until: addDays(today, 5), reason: 'Promise' }, 'clerk'), 403, /./);
    await bad(await pause({ until: addDays(today, 5), reason: 'Promise' }, 'owner', randomUUID()), 404, /Customer not found/);
    await bad(await request('POST', `/api/customers/${customerId}/delinquency/resume`, { reason: 'x' }), 409, /not paused/);
    await bad(await request('GET', '/api/customers/not-an-id/delinquency'), 400, /^id: /);
    await bad(await request('GET', `/api/customers/${randomUUID()}/delinquency`), 404, /Customer not found/);
    expect(await delinquencyEvents(customerId)).toEqual([]);
    expect(await timeline(customerId)).toMatchObject({
      status: 'current',
      pastDue: '30.00',
      steps: [],
      nextStep: { kind: 'late_notice', date: addDays(today, 4) },
    });
  });
});
