import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { runBillingDay } from '@storage/domain/billing/run';
import { DomainRuleError } from '@storage/domain/commands/errors';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { startLease } from '@storage/domain/leases/commands';
import { cancelRentChange, scheduleRentChange } from '@storage/domain/leases/rent-changes';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The billing run across a rent change's effective date, on a real database: the period that
// starts on or after it is invoiced at the new rate, one that started before keeps the old one,
// and a cancelled change changes nothing. Dates lie after the real today, so the projector's own
// billing day (which runs for the real date) never bills them first.

const InvoiceRow = z.object({
  due_date: z.string(),
  amount: z.string(),
  lines: z.array(z.object({ kind: z.string(), amount: z.string(), description: z.string() })),
});

describe('the billing run and rent changes', () => {
  let platform: TestPlatform;
  let facilityId: string;
  let last: Position | null = null;
  const ctx = (now: Date): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
  const track = <T extends { position: Position | null }>(result: T) => {
    if (result.position) last = result.position;
    return result;
  };
  const settle = async () => {
    if (last) expect(await platform.api.afterAppend(last, 10_000)).toBe(true);
  };
  const billingDay = async (date: string) => {
    track(await runBillingDay({ store: platform.api.store, pool: platform.api.pool }, new Date(`${date}T18:00:00Z`), { date, facilityId }));
    await settle();
  };
  /** Each invoice's due date and its rent lines (an unpaid one also takes a late fee, which is not the point here). */
  const rentInvoices = async (leaseId: string) =>
    (
      await platform.api.pool.any(sql.type(InvoiceRow)`
        SELECT due_date::text, amount::text, lines FROM invoices WHERE lease_id = ${leaseId} ORDER BY due_date`)
    ).map((i) => [
      i.due_date,
      i.lines
        .filter((l) => l.kind === 'rent' || l.kind === 'prorated_rent')
        .map((l) => l.amount)
        .join(' + '),
    ]);

  beforeAll(async () => {
    platform = await startTestPlatform();
    const at = ctx(new Date('2027-01-01T12:00:00Z'));
    const facility = track(
      await addFacility(at, { name: `Rates ${randomUUID().slice(0, 6)}`, address: '1 Way', phone: null, managerName: null, timeZone: 'America/Los_Angeles' }),
    );
    if (facility.state.status !== 'current') throw new Error('no facility');
    facilityId = facility.state.facilityId;
    track(await updateBillingSettings(at, { ...defaultBillingSettings }, facilityId));
    await settle();
  });
  afterAll(async () => {
    await platform?.close();
  });

  async function moveIn(startDate: string) {
    const at = ctx(new Date(`${startDate}T18:00:00Z`));
    const tag = randomUUID().slice(0, 8);
    const unit = track(
      await addUnit(at, { facilityId, unitNumber: `RC-${tag}`, building: 'R', size: '10x10', monthlyRate: '120.00', status: 'available', description: null }),
    );
    const customer = track(
      await addCustomer(at, {
        firstName: 'Reed',
        lastName: `Rate${tag}`,
        email: `reed-${tag}@example.com`,
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active',
        facilityId,
      }),
    );
    if (unit.state.status === 'none' || customer.state.status === 'none') throw new Error('setup failed');
    const leaseId = randomUUID();
    track(
      await startLease(
        at,
        { customerId: customer.state.customerId, unitId: unit.state.unitId, startDate, monthlyRate: '120.00', depositAmount: null },
        leaseId,
      ),
    );
    await settle();
    return leaseId;
  }

  it('bills the new rate from the first period that starts on or after the effective date', async () => {
    const leaseId = await moveIn('2027-03-10');
    // Noticed on Mar 20 (Los Angeles), effective May 1: 42 days later.
    const change = track(
      await scheduleRentChange(ctx(new Date('2027-03-20T18:00:00Z')), leaseId, { newRate: '135.00', effectiveDate: '2027-05-01', reason: null }),
    );
    expect(change.events).toMatchObject([{ type: 'lease_rent_change_scheduled', data: { currentRate: '120.00', noticeDate: '2027-03-20' } }]);
    await billingDay('2027-03-27'); // April's rent, issued 5 days before Apr 1
    await billingDay('2027-04-26'); // May's
    await billingDay('2027-05-27'); // June's
    expect(await rentInvoices(leaseId)).toEqual([
      ['2027-03-10', '85.16'], // the move-in: 120.00 × 22 / 31
      ['2027-04-01', '120.00'],
      ['2027-05-01', '135.00'],
      ['2027-06-01', '135.00'],
    ]);
  });

  it('keeps the old rate for the period under way on the effective date, and refuses a date sooner than the notice', async () => {
    const leaseId = await moveIn('2027-03-01');
    const noticed = ctx(new Date('2027-04-01T18:00:00Z'));
    await expect(scheduleRentChange(noticed, leaseId, { newRate: '135.00', effectiveDate: '2027-04-30', reason: null })).rejects.toThrow(DomainRuleError);
    track(await scheduleRentChange(noticed, leaseId, { newRate: '135.00', effectiveDate: '2027-05-15', reason: 'Mid-month' }));
    await billingDay('2027-04-26');
    await billingDay('2027-05-27');
    expect(await rentInvoices(leaseId)).toEqual([
      ['2027-03-01', '120.00'],
      ['2027-04-01', '120.00'],
      ['2027-05-01', '120.00'],
      ['2027-06-01', '135.00'],
    ]);
  });

  it('bills the old rate when the change was cancelled', async () => {
    const leaseId = await moveIn('2027-03-01');
    const scheduled = track(
      await scheduleRentChange(ctx(new Date('2027-03-05T18:00:00Z')), leaseId, { newRate: '135.00', effectiveDate: '2027-05-01', reason: null }),
    );
    track(await cancelRentChange(ctx(new Date('2027-03-06T18:00:00Z')), leaseId, scheduled.changeId, 'Kept the rate'));
    await billingDay('2027-04-26');
    expect(await rentInvoices(leaseId)).toEqual([
      ['2027-03-01', '120.00'],
      ['2027-04-01', '120.00'],
      ['2027-05-01', '120.00'],
    ]);
  });
});
