import { defaultBillingSettings } from '@storage/contracts/billing';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { nextLeasePeriod } from '../billing/lease-billing.ts';
import { type LeaseForBilling, moveInPeriod, nextRentPeriod, rateOn } from '../billing/periods.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideLease, earliestLeaseRentChangeDate, type LeaseCommand, pendingRentChange, type ScheduleRentChange } from './businessLogic.ts';
import { evolveLease, initialLeaseState, type LeaseTerms } from './lease.ts';
import { unusedDaysCredit } from './move-out.ts';
import { adjustedRate, bulkRentChangeId, wholeMonthsBetween } from './rent-changes.ts';

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const unitId = '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02';
const changeId = '7c1e0d2a-4b3f-4e5d-9a8b-0c1d2e3f4a05';
const terms: LeaseTerms = { customerId, unitId, facilityId: null, startDate: '2026-02-10', monthlyRate: '120.00', depositAmount: null };
const started: DomainEvent = { type: 'lease_started', data: { leaseId, ...terms } };
const billedThroughFeb: DomainEvent = {
  type: 'lease_rent_billed',
  data: { leaseId, invoiceId: changeId, periodStart: '2026-02-10', periodEnd: '2026-02-28' },
};
const stateOf = (...events: DomainEvent[]) => events.reduce(evolveLease, initialLeaseState);
const given = (...events: DomainEvent[]) => ({ when: (command: LeaseCommand) => decideLease(command, stateOf(...events)) });

const schedule = (overrides: Partial<ScheduleRentChange> = {}): ScheduleRentChange => ({
  type: 'ScheduleRentChange',
  leaseId,
  changeId,
  newRate: '130.00',
  effectiveDate: '2026-04-01',
  reason: 'Market rate',
  today: '2026-03-01',
  noticeDays: 30,
  ...overrides,
});
const scheduled: DomainEvent = {
  type: 'lease_rent_change_scheduled',
  data: {
    leaseId,
    customerId,
    changeId,
    currentRate: '120.00',
    newRate: '130.00',
    noticeDate: '2026-03-01',
    effectiveDate: '2026-04-01',
    reason: 'Market rate',
  },
};

describe('the rate of a period', () => {
  const lease = (overrides: Partial<LeaseForBilling> = {}): LeaseForBilling => ({
    startDate: '2026-02-10',
    monthlyRate: '120.00',
    depositAmount: null,
    billedThrough: null,
    endDate: null,
    rentChanges: [{ effectiveDate: '2026-04-01', newRate: '130.00' }],
    ...overrides,
  });

  it('is the lease rate before the effective date and the new rate from it', () => {
    expect(rateOn(lease(), '2026-03-31')).toBe('120.00');
    expect(rateOn(lease(), '2026-04-01')).toBe('130.00');
    expect(rateOn(lease({ rentChanges: [...lease().rentChanges!, { effectiveDate: '2026-07-01', newRate: '140.00' }] }), '2026-08-01')).toBe('140.00');
  });

  it('bills the new rate for a period that starts on or after the effective date', () => {
    expect(nextRentPeriod(lease({ billedThrough: '2026-02-28' }), defaultBillingSettings)!.lines[0]!.amount).toBe('120.00');
    expect(nextRentPeriod(lease({ billedThrough: '2026-03-31' }), defaultBillingSettings)!.lines[0]!.amount).toBe('130.00');
    expect(nextRentPeriod(lease({ billedThrough: '2026-04-30' }), defaultBillingSettings)!.lines[0]!.amount).toBe('130.00');
  });

  it('keeps the old rate for a period that started before the effective date (anniversary billing)', () => {
    const anniversary = { ...defaultBillingSettings, billingDay: 'anniversary' as const };
    const mid = lease({ rentChanges: [{ effectiveDate: '2026-03-15', newRate: '130.00' }] });
    // Mar 10 – Apr 9 started before Mar 15: the old rate; Apr 10 – May 9 the new.
    expect(nextRentPeriod({ ...mid, billedThrough: '2026-03-09' }, anniversary)!.lines[0]).toMatchObject({ periodStart: '2026-03-10', amount: '120.00' });
    expect(nextRentPeriod({ ...mid, billedThrough: '2026-04-09' }, anniversary)!.lines[0]).toMatchObject({ periodStart: '2026-04-10', amount: '130.00' });
  });

  it('prorates a partial period at the rate of its first day, and leaves the move-in invoice at the lease rate', () => {
    const moveIn = moveInPeriod(lease({ rentChanges: [{ effectiveDate: '2026-02-11', newRate: '130.00' }] }), defaultBillingSettings);
    expect(moveIn.lines[0]!.amount).toBe('81.43'); // 120.00 × 19 / 28
    const partial = nextRentPeriod(lease({ billedThrough: '2026-04-14' }), defaultBillingSettings)!;
    expect(partial.lines[0]).toMatchObject({ kind: 'prorated_rent', amount: '69.33' }); // 130.00 × 16 / 30
  });

  it('is what the lease aggregate bills, without cancelled changes', () => {
    const billedThroughMar: DomainEvent = {
      type: 'lease_rent_billed',
      data: { leaseId, invoiceId: changeId, periodStart: '2026-03-01', periodEnd: '2026-03-31' },
    };
    const state = stateOf(started, billedThroughFeb, scheduled, billedThroughMar);
    expect(nextLeasePeriod(state, defaultBillingSettings)!.lines[0]!.amount).toBe('130.00');
    const cancelled: DomainEvent = { type: 'lease_rent_change_cancelled', data: { leaseId, changeId, reason: 'Kept' } };
    expect(nextLeasePeriod(stateOf(started, billedThroughFeb, scheduled, cancelled, billedThroughMar), defaultBillingSettings)!.lines[0]!.amount).toBe(
      '120.00',
    );
  });

  it('credits unused days at move-out at the rate their period was billed at', () => {
    const changes = [
      { changeId, currentRate: '120.00', newRate: '150.00', noticeDate: '2026-03-01', effectiveDate: '2026-04-15', reason: null, cancelled: false },
    ];
    // The April period started Apr 1 at 120.00: days after a move-out on Apr 20 are credited at 120.00, not 150.00.
    const credit = unusedDaysCredit({
      terms: { ...terms, monthlyRate: '120.00' },
      endDate: '2026-04-20',
      billedThrough: '2026-04-30',
      lastPeriodStart: '2026-04-01',
      rentChanges: changes,
    });
    expect(credit?.amount).toBe('40.00'); // 120.00 × 10 / 30
  });
});

describe("a lease's earliest rent change date", () => {
  it('is the notice date while nothing past it is invoiced', () => {
    expect(earliestLeaseRentChangeDate('2026-11-10', 30, { startDate: '2026-01-15', billedThrough: '2026-11-30' })).toBe('2026-12-10');
  });

  it("is the day after the rent invoiced when that is later: in a month's last days the next month is invoiced already", () => {
    expect(earliestLeaseRentChangeDate('2026-11-28', 30, { startDate: '2026-01-15', billedThrough: '2026-12-31' })).toBe('2027-01-01');
  });

  it("is after the lease's start for a lease that starts later than the notice allows", () => {
    expect(earliestLeaseRentChangeDate('2026-11-28', 0, { startDate: '2027-02-01', billedThrough: null })).toBe('2027-02-02');
  });
});

describe('schedule a rent change', () => {
  it('records the change with the notice sent today and the rate it replaces', () => {
    expect(given(started, billedThroughFeb).when(schedule())).toEqual([scheduled]);
  });

  it('refuses an effective date sooner than the notice period, naming effectiveDate', () => {
    const tooSoon = () => given(started).when(schedule({ effectiveDate: '2026-03-30' }));
    expect(tooSoon).toThrow(DomainRuleError);
    expect(tooSoon).toThrow(/on or after 2026-03-31/);
    try {
      tooSoon();
    } catch (error) {
      expect((error as DomainRuleError).field).toBe('effectiveDate');
    }
    expect(given(started).when(schedule({ effectiveDate: '2026-03-31' }))).toHaveLength(1);
  });

  it('refuses a rate of zero and the rate it already has', () => {
    expect(() => given(started).when(schedule({ newRate: '0.00' }))).toThrow(/newRate/);
    expect(() => given(started).when(schedule({ newRate: '120.00' }))).toThrow(/already/);
  });

  it('refuses a new rate over the most a unit rents for', () => {
    expect(given(started).when(schedule({ newRate: '100000.00' }))).toHaveLength(1);
    expect(() => given(started).when(schedule({ newRate: '100000.01' }))).toThrow(/^newRate: must be at most 100,000.00$/);
  });

  it('refuses a second pending change (409) but takes one once the first is in effect or cancelled', () => {
    const second = schedule({ changeId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', newRate: '140.00', effectiveDate: '2026-05-01' });
    expect(() => given(started, scheduled).when(second)).toThrow(ConflictError);
    const cancelled: DomainEvent = { type: 'lease_rent_change_cancelled', data: { leaseId, changeId, reason: 'Kept' } };
    expect(given(started, scheduled, cancelled).when(second)).toHaveLength(1);
    const later = given(started, scheduled).when({ ...second, today: '2026-04-01', effectiveDate: '2026-06-01' });
    expect(later).toMatchObject([{ data: { currentRate: '130.00', newRate: '140.00', noticeDate: '2026-04-01' } }]);
    expect(pendingRentChange(stateOf(started, scheduled), '2026-03-31')?.changeId).toBe(changeId);
    expect(pendingRentChange(stateOf(started, scheduled), '2026-04-01')).toBeNull();
  });

  it('records nothing for a repeat of the same change', () => {
    expect(given(started, scheduled).when(schedule())).toEqual([]);
  });

  it('refuses an ended lease (409), an unknown one (404) and a date already invoiced', () => {
    const ended: DomainEvent = { type: 'lease_ended', data: { leaseId, customerId, unitId, endDate: '2026-03-01' } };
    expect(() => given(started, ended).when(schedule())).toThrow(ConflictError);
    expect(() => given().when(schedule())).toThrow(NotFoundError);
    const billedAhead: DomainEvent = { type: 'lease_rent_billed', data: { leaseId, invoiceId: changeId, periodStart: '2026-03-01', periodEnd: '2026-04-30' } };
    expect(() => given(started, billedThroughFeb, billedAhead).when(schedule({ effectiveDate: '2026-04-15', noticeDays: 0 }))).toThrow(/invoiced through/);
  });
});

describe('cancel a rent change', () => {
  const cancel = (today: string) => ({ type: 'CancelRentChange' as const, leaseId, changeId, reason: 'Kept the rate', today });

  it('cancels a change before it takes effect, once', () => {
    const events = given(started, scheduled).when(cancel('2026-03-15'));
    expect(events).toEqual([{ type: 'lease_rent_change_cancelled', data: { leaseId, changeId, reason: 'Kept the rate' } }]);
    expect(given(started, scheduled, ...events).when(cancel('2026-03-15'))).toEqual([]);
  });

  it('refuses a change in effect (409) and one that does not exist (404)', () => {
    expect(() => given(started, scheduled).when(cancel('2026-04-01'))).toThrow(ConflictError);
    expect(() => given(started).when(cancel('2026-03-15'))).toThrow(NotFoundError);
  });
});

describe('bulk arithmetic', () => {
  it('adds a percentage or an amount, half up to the cent', () => {
    expect(adjustedRate('120.00', { kind: 'percent', value: '5' })).toBe('126.00');
    expect(adjustedRate('99.99', { kind: 'percent', value: '4.5' })).toBe('104.49'); // 4.49955 → 4.50
    expect(adjustedRate('10.10', { kind: 'percent', value: '2.5' })).toBe('10.35'); // 0.2525 → 0.25
    expect(adjustedRate('10.30', { kind: 'percent', value: '5' })).toBe('10.82'); // 0.515 → 0.52
    expect(adjustedRate('120.00', { kind: 'amount', value: '7.50' })).toBe('127.50');
  });

  it('counts whole months at a rate', () => {
    expect(wholeMonthsBetween('2026-01-31', '2026-02-27')).toBe(0);
    expect(wholeMonthsBetween('2026-01-31', '2026-02-28')).toBe(1);
    expect(wholeMonthsBetween('2025-03-15', '2026-03-14')).toBe(11);
    expect(wholeMonthsBetween('2025-03-15', '2026-03-15')).toBe(12);
    expect(wholeMonthsBetween('2026-05-01', '2026-03-01')).toBe(0);
  });

  it('derives one change id per request key and lease', () => {
    expect(bulkRentChangeId('key-1', leaseId)).toBe(bulkRentChangeId('key-1', leaseId));
    expect(bulkRentChangeId('key-1', leaseId)).not.toBe(bulkRentChangeId('key-2', leaseId));
  });
});
