import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { type BillingDay, runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { afterPaymentRecorded, generateInvoice, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import type { Position } from '@storage/eventstore/port';
import { readConfig } from '@storage/platform/config';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { BILLING_DAY_JOB, SCHEDULED_JOBS_QUEUE } from '@storage/projector/jobs/scheduler';
import { startProjector } from '@storage/projector/service';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The billing day's overdue rules on a real database: it marks sent invoices past their due date
// overdue and their customers too (customer_standing_changed), raises the staff notification, and
// changes nothing when run again; paying the last overdue invoice puts the customer in good
// standing again. (Rent issuing and late fees: billing-engine.int.test.ts.)

const DAY = 86_400_000;
const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** The day's totals over every facility's run. */
function totals(day: BillingDay) {
  const sum = (key: 'invoicesIssued' | 'lateFeesCharged' | 'invoicesOverdue' | 'customersOverdue') => day.runs.reduce((n, run) => n + run[key], 0);
  return {
    invoicesIssued: sum('invoicesIssued'),
    lateFeesCharged: sum('lateFeesCharged'),
    invoicesOverdue: sum('invoicesOverdue'),
    customersOverdue: sum('customersOverdue'),
  };
}

describe('billing day: overdue invoices', () => {
  let platform: TestPlatform;
  const ctx = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  /** Waits until the read model shows everything appended so far by this test's commands. */
  let lastPosition: Position | null = null;
  function track<T extends { position: Position | null }>(result: T): T {
    if (result.position) lastPosition = result.position;
    return result;
  }
  async function settle() {
    if (lastPosition) expect(await platform.api.afterAppend(lastPosition, 10_000)).toBe(true);
  }
  async function eventually(check: () => Promise<boolean>) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function customer(status: 'active' | 'inactive' = 'active') {
    const tag = randomUUID().slice(0, 8);
    const fields = {
      firstName: 'Olive',
      lastName: `Late${tag}`,
      email: `olive-${tag}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status,
      facilityId: null,
    };
    const result = track(await addCustomer(ctx(), fields));
    if (result.state.status === 'none') throw new Error('no customer');
    return { customerId: result.state.customerId, name: `${fields.firstName} ${fields.lastName}` };
  }

  async function invoice(customerId: string, dueInDays: number, send = true) {
    const fields = {
      invoiceNumber: `INV-T-${randomUUID().slice(0, 8)}`,
      customerId,
      leaseId: null,
      amount: '120.00',
      dueDate: isoDaysFromNow(dueInDays),
      status: 'draft' as const,
      description: 'Monthly rent',
    };
    const result = track(await generateInvoice(ctx(), fields));
    if (result.state.status === 'none') throw new Error('no invoice');
    if (send) track(await sendInvoice(ctx(), result.state.invoiceId));
    return { id: result.state.invoiceId, invoiceNumber: fields.invoiceNumber };
  }

  const invoiceStatus = (id: string) => platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM invoices WHERE id = ${id}`);
  const customerStatus = (id: string) => platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM customers WHERE id = ${id}`);
  const overdueNotifications = (invoiceNumber: string) =>
    platform.api.pool.anyFirst(sql.type(z.object({ message: z.string() }))`
      SELECT message FROM notifications WHERE type = 'payment_overdue' AND message LIKE ${`%${invoiceNumber}%`}`);

  it('marks a sent invoice past its due date overdue, and its customer, once; paying the last one makes the customer active', async () => {
    const { customerId, name } = await customer();
    const first = await invoice(customerId, -3);
    const second = await invoice(customerId, -1);
    const notYetDue = await invoice(customerId, 0);
    const draft = await invoice(customerId, -10, false);
    await settle();

    const run = track(await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date()));
    expect(totals(run)).toMatchObject({ invoicesOverdue: 2, customersOverdue: 1 });
    await settle();
    expect(await invoiceStatus(first.id)).toBe('overdue');
    expect(await invoiceStatus(second.id)).toBe('overdue');
    expect(await invoiceStatus(notYetDue.id)).toBe('sent');
    expect(await invoiceStatus(draft.id)).toBe('draft');
    expect(await customerStatus(customerId)).toBe('overdue');
    expect(await overdueNotifications(first.invoiceNumber)).toEqual([`${name}: invoice ${first.invoiceNumber} is past due, $120.00 owed`]);
    const customerEvents = await platform.api.store.readStream(streams.customer(customerId));
    expect(customerEvents.at(-1)).toMatchObject({
      type: 'customer_standing_changed',
      data: { customerId, status: 'overdue', reason: expect.stringMatching(/^Invoice INV-T-\w+ is overdue$/) },
    });

    const again = await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date());
    expect(totals(again)).toEqual({ invoicesIssued: 0, lateFeesCharged: 0, invoicesOverdue: 0, customersOverdue: 0 });
    expect((await platform.api.store.readStream(streams.customer(customerId))).length).toBe(customerEvents.length);

    const payment = { amount: '120.00', method: 'cash' as const, stripePaymentIntentId: null };
    track(await recordPayment(ctx(), first.id, payment));
    expect(await afterPaymentRecorded(ctx(), customerId)).toBeNull();
    await settle();
    expect(await customerStatus(customerId)).toBe('overdue');

    track(await recordPayment(ctx(), second.id, payment));
    // The read model may still show the invoice just paid as overdue: its stream has the last word.
    const settled = await afterPaymentRecorded(ctx(), customerId);
    if (settled) track(settled);
    expect(settled?.events).toEqual([{ type: 'customer_standing_changed', data: { customerId, status: 'active', reason: 'No overdue invoice left' } }]);
    await settle();
    expect(await invoiceStatus(second.id)).toBe('paid');
    expect(await customerStatus(customerId)).toBe('active');
  });

  it("marks an inactive customer's invoice overdue but leaves the customer as the manager set them", async () => {
    const { customerId } = await customer('inactive');
    const late = await invoice(customerId, -5);
    await settle();
    const run = track(await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date()));
    expect(totals(run)).toMatchObject({ invoicesOverdue: 1, customersOverdue: 0 });
    await settle();
    expect(await invoiceStatus(late.id)).toBe('overdue');
    expect(await customerStatus(customerId)).toBe('inactive');
  });

  it('each run has a correlation id of its own, and each event it appends names the event it was decided on as causation', async () => {
    const correlations: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { customerId } = await customer();
      const late = await invoice(customerId, -4);
      await settle();
      const invoiceBefore = (await platform.api.store.readStream(streams.invoice(late.id))).at(-1)!;
      const customerBefore = (await platform.api.store.readStream(streams.customer(customerId))).at(-1)!;
      track(await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date()));
      await settle();
      const overdue = (await platform.api.store.readStream(streams.invoice(late.id))).at(-1)!;
      const customerOverdue = (await platform.api.store.readStream(streams.customer(customerId))).at(-1)!;
      expect(overdue.type).toBe('invoice_overdue');
      expect(overdue.metadata.causationId).toBe(invoiceBefore.id);
      expect(customerOverdue.type).toBe('customer_standing_changed');
      expect(customerOverdue.metadata.causationId).toBe(customerBefore.id);
      expect(customerOverdue.metadata.correlationId).toBe(overdue.metadata.correlationId);
      expect(overdue.metadata.correlationId).not.toBe(invoiceBefore.metadata.correlationId);
      correlations.push(overdue.metadata.correlationId);
    }
    expect(correlations[0]).not.toBe(correlations[1]);
  });

  it("is an hourly BullMQ job scheduler, so that each facility's day starts within the hour, and runs once when a projector starts", async () => {
    const connection = queueConnection({ redisUrl: undefined, databaseUrl: platform.database.url });
    const queue = createQueue(SCHEDULED_JOBS_QUEUE, connection);
    try {
      const scheduler = await queue.getJobScheduler(`${BILLING_DAY_JOB}-hourly`);
      expect(scheduler).toMatchObject({ name: BILLING_DAY_JOB, pattern: '5 * * * *', tz: 'UTC' });
    } finally {
      await queue.close();
    }

    const { customerId } = await customer();
    const late = await invoice(customerId, -2);
    await settle();
    const another = await startProjector({ pool: platform.api.pool, store: platform.api.store, connection, payments: {}, schedule: readConfig({}) });
    try {
      await eventually(async () => (await customerStatus(customerId)) === 'overdue');
      expect(await invoiceStatus(late.id)).toBe('overdue');
    } finally {
      await another.stop();
    }
  });
});
