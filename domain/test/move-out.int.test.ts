import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { billLease, leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { recordPayment } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import type { LeaseTerms } from '@storage/domain/leases/lease';
import { moveOut, unusedDaysCredit } from '@storage/domain/leases/move-out';
import { requestMoveOut, runScheduledMoveOuts } from '@storage/domain/leases/scheduled-move-outs';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Move-out on a real database: billing stops after the end day and what is owed stays owed; with
// the moveOutCredit setting the unused days of an invoiced period are credited by the proration
// rule; the deposit paid is applied to the balance or returned, as staff choose; a repeat records
// nothing twice.

const MARCH_28 = new Date('2026-03-28T12:00:00Z');

describe('move-out', () => {
  let platform: TestPlatform;
  let last: Position | null = null;
  const ctx = (now = MARCH_28): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  const track = <T extends { position: Position | null }>(result: T) => {
    if (result.position) last = result.position;
    return result;
  };
  const settle = async () => {
    if (last) expect(await platform.api.afterAppend(last, 10_000)).toBe(true);
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function facility(moveOutCredit: boolean) {
    const added = track(
      await addFacility(ctx(), { name: `Moves ${randomUUID().slice(0, 6)}`, address: '3 Way', phone: null, managerName: null, timeZone: 'UTC' }),
    );
    if (added.state.status !== 'current') throw new Error('no facility');
    const facilityId = added.state.facilityId;
    track(await updateBillingSettings(ctx(), { ...defaultBillingSettings, moveOutCredit }, facilityId));
    return facilityId;
  }

  /** A renter moved in on March 1 at 310.00 a month with a 50.00 deposit; on March 28 the move-in invoice (360.00) is paid and April's rent (310.00) issued. */
  async function movedIn(facilityId: string) {
    const tag = randomUUID().slice(0, 8);
    const customer = track(
      await addCustomer(ctx(), {
        firstName: 'Mo',
        lastName: `Out${tag}`,
        email: `mo-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId,
      }),
    );
    if (customer.state.status === 'none') throw new Error('no customer');
    const customerId = customer.state.customerId;
    const unit = track(
      await addUnit(ctx(), { facilityId, unitNumber: `M-${tag}`, building: 'M', size: '5x5', monthlyRate: '310.00', status: 'available', description: null }),
    );
    if (unit.state.status === 'none') throw new Error('no unit');
    const leaseId = randomUUID();
    track(await startLease(ctx(), { customerId, unitId: unit.state.unitId, startDate: '2026-03-01', monthlyRate: '310.00', depositAmount: '50.00' }, leaseId));
    const moveInInvoice = leaseInvoiceId(leaseId, '2026-03-01');
    track(await recordPayment(ctx(), moveInInvoice, { amount: '360.00', method: 'cash', stripePaymentIntentId: null }));
    const april = leaseInvoiceId(leaseId, '2026-04-01');
    return { customerId, leaseId, april };
  }

  const invoice = async (id: string) => {
    await settle();
    return platform.api.pool.one(
      sql.type(z.object({ amount: z.string(), amount_paid: z.string(), status: z.string() }))`
        SELECT amount::text, amount_paid::text, status FROM invoices WHERE id = ${id}`,
    );
  };
  const ledgerOf = async (customerId: string) => {
    await settle();
    const rows = await platform.api.pool.any(
      sql.type(z.object({ kind: z.string(), amount: z.string(), description: z.string() }))`
        SELECT kind, amount::text, description FROM ledger_entries WHERE customer_id = ${customerId} ORDER BY position`,
    );
    const cents = rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    return { rows: rows.map((r) => [r.kind, r.amount, r.description]), balance: (cents / 100).toFixed(2) };
  };
  const creditOf = async (customerId: string) => {
    await settle();
    return platform.api.pool.oneFirst(sql.type(z.object({ c: z.string() }))`SELECT credit_balance::text AS c FROM customers WHERE id = ${customerId}`);
  };
  /** The stream's event types; an account's money events (the listings of its invoices left out). */
  const types = async (stream: string) => (await platform.api.store.readStream(stream)).map((e) => e.type).filter((type) => type !== 'account_invoice_listed');

  it('credits unused days by the proration rule, month by month, rounded half up', () => {
    const terms = { monthlyRate: '310.00' } as LeaseTerms;
    // April 11–30: 310.00 × 20 ÷ 30 = 206.666… → 206.67; all of May is the monthly rate.
    expect(unusedDaysCredit({ terms, endDate: '2026-04-10', billedThrough: '2026-04-30' })).toEqual({
      amount: '206.67',
      words: 'Unused days Apr 11 – Apr 30, 2026 at move-out',
    });
    expect(unusedDaysCredit({ terms, endDate: '2026-04-10', billedThrough: '2026-05-31' })?.amount).toBe('516.67');
    expect(unusedDaysCredit({ terms, endDate: '2026-04-30', billedThrough: '2026-04-30' })).toBeNull();
    expect(unusedDaysCredit({ terms, endDate: '2026-04-10', billedThrough: null })).toBeNull();
  });

  it('with moveOutCredit, credits the unused days of April and applies the deposit to what is owed; billing stops; a repeat records nothing', async () => {
    const facilityId = await facility(true);
    const { customerId, leaseId, april } = await movedIn(facilityId);
    expect(await invoice(april)).toEqual({ amount: '310.00', amount_paid: '0.00', status: 'sent' });

    track(await moveOut(ctx(new Date('2026-04-10T15:00:00Z')), leaseId, { endDate: '2026-04-10', deposit: 'apply' }));
    // 206.67 for April 11–30 and the 50.00 deposit pay April's rent; 53.33 is still owed and stays owed.
    expect(await invoice(april)).toEqual({ amount: '310.00', amount_paid: '256.67', status: 'sent' });
    expect(await creditOf(customerId)).toBe('0.00');
    const ledger = await ledgerOf(customerId);
    expect(ledger.rows.slice(3)).toEqual([
      ['credit', '-206.67', 'Credit — Unused days Apr 11 – Apr 30, 2026 at move-out'],
      ['credit', '-50.00', 'Credit — Deposit applied to the balance at move-out'],
    ]);
    expect(ledger.balance).toBe('53.33');
    const lease = (await platform.api.store.readStream(streams.lease(leaseId))).find((e) => e.type === 'lease_deposit_settled');
    expect(lease?.data).toMatchObject({ amount: '50.00', disposition: 'applied', method: null });

    const accountBefore = await types(streams.account(customerId));
    const leaseBefore = await types(streams.lease(leaseId));
    track(await moveOut(ctx(new Date('2026-04-11T15:00:00Z')), leaseId, { endDate: '2026-04-10', deposit: 'return' }));
    expect(await types(streams.account(customerId))).toEqual(accountBefore);
    expect(await types(streams.lease(leaseId))).toEqual(leaseBefore);

    // The billing run bills nothing after the end: May and June are never issued.
    const billed = track(await billLease(ctx(new Date('2026-06-02T12:00:00Z')), leaseId, '2026-06-02', { ...defaultBillingSettings, moveOutCredit: true }));
    expect(billed.issued).toBe(0);
    await settle();
    const invoices = await platform.api.pool.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM invoices WHERE lease_id = ${leaseId}`,
    );
    expect(invoices).toBe(2);
  });

  it('without moveOutCredit, credits nothing; a returned deposit is credited and handed back, and April stays owed', async () => {
    const facilityId = await facility(false);
    const { customerId, leaseId, april } = await movedIn(facilityId);
    track(
      await moveOut(ctx(new Date('2026-04-10T15:00:00Z')), leaseId, {
        endDate: '2026-04-10',
        deposit: 'return',
        depositMethod: 'bank_transfer',
      }),
    );
    expect(await invoice(april)).toEqual({ amount: '310.00', amount_paid: '0.00', status: 'sent' });
    expect(await creditOf(customerId)).toBe('0.00');
    const ledger = await ledgerOf(customerId);
    expect(ledger.rows.slice(3)).toEqual([
      ['credit', '-50.00', 'Credit — Deposit returned at move-out'],
      ['refund', '50.00', 'Refund of credit — bank transfer: Deposit returned at move-out'],
    ]);
    expect(ledger.balance).toBe('310.00');
    expect(await types(streams.account(customerId))).toEqual(['account_credited', 'account_credit_refunded']);
    // Repeated with the other choice, the first one stands.
    track(await moveOut(ctx(new Date('2026-04-10T16:00:00Z')), leaseId, { endDate: '2026-04-10', deposit: 'apply' }));
    expect(await types(streams.account(customerId))).toEqual(['account_credited', 'account_credit_refunded']);
  });

  it('scheduled ahead, bills and settles as a move-out on its day would, done by the day after a missed one, once', async () => {
    const facilityId = await facility(true);
    const now = await movedIn(facilityId);
    const later = await movedIn(facilityId);
    const settings = { ...defaultBillingSettings, moveOutCredit: true };
    track(await moveOut(ctx(new Date('2026-04-10T15:00:00Z')), now.leaseId, { endDate: '2026-04-10', deposit: 'apply' }));

    // Scheduled on March 28 for April 10: the lease runs on, and is billed only up to April 10.
    const scheduled = track(await requestMoveOut(ctx(), later.leaseId, { endDate: '2026-04-10', deposit: 'apply' }));
    expect(scheduled.state).toMatchObject({ status: 'active', moveOut: { endDate: '2026-04-10', scheduledOn: '2026-03-28', deposit: 'apply' } });
    expect(track(await billLease(ctx(new Date('2026-04-27T12:00:00Z')), later.leaseId, '2026-04-27', settings)).issued).toBe(0);
    await settle();

    // The day was missed (nothing ran on April 10): the run of May 2 moves them out on April 10.
    const deps = { pool: platform.api.pool };
    const run = await runScheduledMoveOuts(deps, ctx(new Date('2026-05-02T12:00:00Z')), facilityId, '2026-05-02');
    track(run);
    expect(run).toMatchObject({ movedOut: 1, skipped: [] });
    const ended = (await platform.api.store.readStream(streams.lease(later.leaseId))).find((e) => e.type === 'lease_ended');
    expect(ended?.data).toMatchObject({ endDate: '2026-04-10' });
    expect(await invoice(later.april)).toEqual(await invoice(now.april));
    expect((await ledgerOf(later.customerId)).rows.slice(3)).toEqual((await ledgerOf(now.customerId)).rows.slice(3));
    expect((await ledgerOf(later.customerId)).balance).toBe('53.33');

    // Again: nothing more on the lease or the account.
    const account = await types(streams.account(later.customerId));
    const lease = await types(streams.lease(later.leaseId));
    await settle();
    expect(await runScheduledMoveOuts(deps, ctx(new Date('2026-05-02T13:00:00Z')), facilityId, '2026-05-02')).toMatchObject({ movedOut: 0, position: null });
    expect(await types(streams.account(later.customerId))).toEqual(account);
    expect(await types(streams.lease(later.leaseId))).toEqual(lease);
  });
});
