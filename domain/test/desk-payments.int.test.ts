import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { runBillingDay } from '@storage/domain/billing/run';
import { ConcurrencyExhaustedError } from '@storage/domain/commands/errors';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { cancelInvoice, generateInvoice, sendInvoice, writeOffInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { giveCredit, recordDeskPayment } from '@storage/domain/payments/desk';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { type EventStore, type Position, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Money at the desk on a real database: a payment over several invoices oldest first, part of the
// last one, the rest as credit that the next invoice uses; a repeat records nothing twice; a
// credit with a reason; a write-off and a void.

const Row = z.object({ invoice_number: z.string(), amount: z.string(), amount_paid: z.string(), status: z.string() });

describe('payments at the desk', () => {
  let platform: TestPlatform;
  let facilityId: string;
  const ctx = (now = new Date()): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  let last: Position | null = null;
  const track = <T extends { position: Position | null }>(result: T) => {
    if (result.position) last = result.position;
    return result;
  };
  const settle = async () => {
    if (last) expect(await platform.api.afterAppend(last, 10_000)).toBe(true);
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    const facility = track(
      await addFacility(ctx(), { name: `Desk ${randomUUID().slice(0, 6)}`, address: '2 Way', phone: null, managerName: null, timeZone: 'America/Chicago' }),
    );
    if (facility.state.status !== 'current') throw new Error('no facility');
    facilityId = facility.state.facilityId;
    track(await updateBillingSettings(ctx(), { ...defaultBillingSettings }));
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function renter() {
    const tag = randomUUID().slice(0, 8);
    const customer = track(
      await addCustomer(ctx(), {
        firstName: 'Dana',
        lastName: `Desk${tag}`,
        email: `dana-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId,
      }),
    );
    if (customer.state.status === 'none') throw new Error('no customer');
    return customer.state.customerId;
  }

  async function sentInvoice(customerId: string, amount: string, dueDate: string) {
    const number = `INV-D-${randomUUID().slice(0, 8)}`;
    const made = track(
      await generateInvoice(ctx(), { invoiceNumber: number, customerId, leaseId: null, amount, dueDate, status: 'draft', description: 'Charge' }),
    );
    if (made.state.status === 'none') throw new Error('no invoice');
    track(await sendInvoice(ctx(), made.state.invoiceId));
    return { id: made.state.invoiceId, number };
  }

  const invoices = async (customerId: string) => {
    await settle();
    return platform.api.pool.any(
      sql.type(Row)`SELECT invoice_number, amount::text, amount_paid::text, status FROM invoices WHERE customer_id = ${customerId} ORDER BY due_date`,
    );
  };
  const ledgerOf = async (customerId: string) => {
    await settle();
    const rows = await platform.api.pool.any(
      sql.type(
        z.object({ kind: z.string(), amount: z.string() }),
      )`SELECT kind, amount::text FROM ledger_entries WHERE customer_id = ${customerId} ORDER BY position`,
    );
    const cents = rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    return { kinds: rows.map((r) => r.kind), balance: (cents / 100).toFixed(2) };
  };
  const creditOf = async (customerId: string) => {
    await settle();
    return platform.api.pool.oneFirst(sql.type(z.object({ credit_balance: z.string() }))`SELECT credit_balance::text FROM customers WHERE id = ${customerId}`);
  };

  it('pays the open invoices oldest first, part of the last, and a repeat of the same receipt records nothing more', async () => {
    const customerId = await renter();
    const older = await sentInvoice(customerId, '100.00', '2026-01-01');
    const newer = await sentInvoice(customerId, '80.00', '2026-02-01');
    await settle();
    const receiptId = randomUUID();
    const payment = { customerId, amount: '130.00', method: 'check' as const, reference: '1042' };
    const receipt = track(await recordDeskPayment(ctx(), payment, receiptId));
    expect(receipt.applied).toEqual([
      { invoiceId: older.id, invoiceNumber: older.number, amount: '100.00' },
      { invoiceId: newer.id, invoiceNumber: newer.number, amount: '30.00' },
    ]);
    expect(receipt.credited).toBe('0.00');
    expect(await invoices(customerId)).toEqual([
      { invoice_number: older.number, amount: '100.00', amount_paid: '100.00', status: 'paid' },
      { invoice_number: newer.number, amount: '80.00', amount_paid: '30.00', status: 'sent' },
    ]);
    const again = track(await recordDeskPayment(ctx(), payment, receiptId));
    expect(again.applied.map((a) => a.amount)).toEqual(['100.00', '30.00']);
    expect((await invoices(customerId)).map((i) => i.amount_paid)).toEqual(['100.00', '30.00']);
    const events = await platform.api.store.readStream(streams.invoice(newer.id));
    expect(events.filter((e) => e.type === 'payment_received')).toHaveLength(1);
    expect(events.find((e) => e.type === 'payment_received')!.data).toMatchObject({ method: 'check', reference: '1042', receiptId, amount: '30.00' });
  });

  it('pays an invoice written a moment before, which the read model has not projected yet, instead of keeping the money as credit', async () => {
    const customerId = await renter();
    await settle();
    // Issued just now (as the billing engine would) and not yet projected: nothing woke the projector.
    const fresh = await sentInvoice(customerId, '75.00', '2026-03-01');
    const receiptId = randomUUID();
    const receipt = track(await recordDeskPayment(ctx(), { customerId, amount: '75.00', method: 'cash', reference: null }, receiptId));
    expect(receipt.applied).toEqual([{ invoiceId: fresh.id, invoiceNumber: fresh.number, amount: '75.00' }]);
    expect(receipt.credited).toBe('0.00');
    // The plan was recorded first: a repeat of the receipt is the same plan.
    const again = track(await recordDeskPayment(ctx(), { customerId, amount: '75.00', method: 'cash', reference: null }, receiptId));
    expect(again.applied.map((a) => a.invoiceId)).toEqual([fresh.id]);
    expect(await creditOf(customerId)).toBe('0.00');
    expect((await invoices(customerId)).map((i) => i.status)).toEqual(['paid']);
  });

  it('pays an invoice written while an older transaction is still open, which holds every reader of the log below it', async () => {
    const customerId = await renter();
    await settle();
    // A transaction of this database that took its id before the invoice's append and is still open:
    // readers of the log (and its readable head) stop below it until it ends.
    let opened!: () => void;
    let release!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holding = platform.api.pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`SELECT pg_current_xact_id()`);
      opened();
      await released;
    });
    await open;
    const fresh = await sentInvoice(customerId, '40.00', '2026-03-01');
    expect(await platform.api.store.headPosition()).not.toEqual(await platform.api.store.newestPosition());
    // The payment is made whole while the transaction is still open, and it is ended only then: a
    // timer ending it could fire, on a loaded machine, before the payment read the invoice.
    let receipt: Awaited<ReturnType<typeof recordDeskPayment>>;
    try {
      receipt = track(await recordDeskPayment(ctx(), { customerId, amount: '40.00', method: 'cash', reference: null }, randomUUID()));
    } finally {
      release();
    }
    await holding;
    expect(receipt.applied).toEqual([{ invoiceId: fresh.id, invoiceNumber: fresh.number, amount: '40.00' }]);
    expect(receipt.credited).toBe('0.00');
    expect(await creditOf(customerId)).toBe('0.00');
  });

  it('keeps nothing as credit when every attempt on an invoice lost its race, and a repeat of the receipt then pays it once', async () => {
    const customerId = await renter();
    const invoice = await sentInvoice(customerId, '60.00', '2026-01-01');
    await settle();
    // A store whose appends to this invoice's stream always find it changed meanwhile.
    const store = platform.api.store;
    const racing: EventStore = Object.create(store, {
      append: {
        value: (stream: string, events: Parameters<EventStore['append']>[1], options: Parameters<EventStore['append']>[2]) =>
          stream === streams.invoice(invoice.id)
            ? Promise.reject(new WrongExpectedRevisionError(stream, options?.expectedRevision ?? 'any', 0n))
            : store.append(stream, events, options),
      },
    });
    const receiptId = randomUUID();
    const payment = { customerId, amount: '60.00', method: 'cash' as const, reference: null };
    await expect(recordDeskPayment({ ...ctx(), store: racing }, payment, receiptId)).rejects.toBeInstanceOf(ConcurrencyExhaustedError);
    expect(await creditOf(customerId)).toBe('0.00');
    const repeat = track(await recordDeskPayment(ctx(), payment, receiptId));
    expect(repeat).toMatchObject({ applied: [{ invoiceId: invoice.id, amount: '60.00' }], credited: '0.00' });
    expect(await creditOf(customerId)).toBe('0.00');
    expect((await invoices(customerId)).map((i) => [i.amount_paid, i.status])).toEqual([['60.00', 'paid']]);
  });

  it("dates a payment in the facility's zone: 05:00 UTC is still the evening before in Chicago", async () => {
    const customerId = await renter();
    const invoice = await sentInvoice(customerId, '40.00', '2026-01-01');
    await settle();
    track(await recordDeskPayment(ctx(new Date('2026-11-24T05:00:00Z')), { customerId, amount: '40.00', method: 'cash', reference: null }));
    const events = await platform.api.store.readStream(streams.invoice(invoice.id));
    expect(events.find((e) => e.type === 'payment_received')!.data).toMatchObject({ paidDate: '2026-11-23' });
    await settle();
    const dates = await platform.api.pool.anyFirst(
      sql.type(z.object({ entry_date: z.string() }))`SELECT entry_date::text FROM ledger_entries WHERE customer_id = ${customerId} AND kind = 'payment'`,
    );
    expect(dates).toEqual(['2026-11-23']);
  });

  it('keeps an overpayment as credit, which the next invoice the engine issues uses at once', async () => {
    const customerId = await renter();
    await sentInvoice(customerId, '50.00', '2026-01-01');
    await settle();
    const receipt = track(await recordDeskPayment(ctx(), { customerId, amount: '200.00', method: 'cash', reference: null }));
    expect(receipt.credited).toBe('150.00');
    expect(await creditOf(customerId)).toBe('150.00');

    const unit = track(
      await addUnit(ctx(), {
        facilityId,
        unitNumber: `D-${randomUUID().slice(0, 6)}`,
        building: 'D',
        size: '5x5',
        monthlyRate: '120.00',
        status: 'available',
        description: null,
      }),
    );
    if (unit.state.status === 'none') throw new Error('no unit');
    const leaseId = randomUUID();
    const moveInAt = new Date('2026-03-01T18:00:00Z');
    track(
      await startLease(ctx(moveInAt), { customerId, unitId: unit.state.unitId, startDate: '2026-03-01', monthlyRate: '120.00', depositAmount: null }, leaseId),
    );
    // The move-in invoice (120.00) takes 120.00 of the credit; April's rent takes the last 30.00.
    await settle();
    track(await runBillingDay({ store: platform.api.store, pool: platform.api.pool }, new Date('2026-03-27T18:00:00Z'), { facilityId }));
    const all = await invoices(customerId);
    expect(all.slice(1).map((i) => [i.amount, i.amount_paid, i.status])).toEqual([
      ['120.00', '120.00', 'paid'],
      ['120.00', '30.00', 'sent'],
    ]);
    expect(await creditOf(customerId)).toBe('0.00');
    // The ledger: what was charged less what came in; the credit counted once, when it came in.
    expect(await ledgerOf(customerId)).toEqual({ kinds: ['charge', 'credit', 'payment', 'charge', 'charge'], balance: '90.00' });
  });

  it('gives a credit with a reason that pays what is open, writes off what is left with a reason, and voids only an unpaid invoice', async () => {
    const customerId = await renter();
    const owed = await sentInvoice(customerId, '90.00', '2026-01-01');
    const untouched = await sentInvoice(customerId, '40.00', '2026-02-01');
    await settle();
    track(await giveCredit(ctx(), customerId, '25.00', 'Door was broken for a week'));
    expect((await invoices(customerId)).map((i) => i.amount_paid)).toEqual(['25.00', '0.00']);
    const account = (await platform.api.store.readStream(streams.account(customerId))).filter((e) => e.type !== 'account_invoice_listed');
    expect(account.map((e) => e.type)).toEqual(['account_credited', 'account_credit_applied']);
    expect(account[0]!.data).toMatchObject({ amount: '25.00', reason: 'Door was broken for a week', receiptId: null });

    track(await writeOffInvoice(ctx(), owed.id, 'Renter left town'));
    const written = (await platform.api.store.readStream(streams.invoice(owed.id))).at(-1)!;
    expect(written).toMatchObject({ type: 'invoice_written_off', data: { amount: '65.00', reason: 'Renter left town' } });
    await expect(cancelInvoice(ctx(), owed.id, 'Typed twice')).rejects.toThrow('A written-off invoice cannot be cancelled');
    track(await cancelInvoice(ctx(), untouched.id, 'Typed twice'));
    expect((await invoices(customerId)).map((i) => i.status)).toEqual(['written_off', 'cancelled']);
    expect(await ledgerOf(customerId)).toEqual({ kinds: ['charge', 'charge', 'credit', 'write_off', 'void'], balance: '0.00' });
  });

  it('refuses a payment of nothing, and an invoice of another renter among those chosen', async () => {
    const customerId = await renter();
    const other = await renter();
    const theirs = await sentInvoice(other, '10.00', '2026-01-01');
    await expect(recordDeskPayment(ctx(), { customerId, amount: '0.00', method: 'cash', reference: null })).rejects.toThrow('more than 0.00');
    await expect(recordDeskPayment(ctx(), { customerId, amount: '10.00', method: 'cash', reference: null, invoiceIds: [theirs.id] })).rejects.toThrow(
      "not one of this customer's",
    );
  });
});
