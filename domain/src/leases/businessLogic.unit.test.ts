import { defaultBillingSettings } from '@storage/contracts/billing';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { nextLeasePeriod } from '../billing/lease-billing.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { decideLease, type LeaseCommand } from './businessLogic.ts';
import { evolveLease, initialLeaseState, type LeaseTerms } from './lease.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: LeaseCommand) => decideLease(command, events.reduce(evolveLease, initialLeaseState)),
});

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const unitId = '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02';
const terms: LeaseTerms = { customerId, unitId, facilityId: null, startDate: '2025-03-01', monthlyRate: '120.00', depositAmount: '120.00' };
const started: DomainEvent = { type: 'lease_started', data: { leaseId, ...terms } };
const ended: DomainEvent = { type: 'lease_ended', data: { leaseId, customerId, unitId, endDate: '2025-06-15' } };

describe('start lease', () => {
  it('starts a lease on the agreed terms', () => {
    expect(given().when({ type: 'StartLease', leaseId, terms })).toEqual([started]);
  });

  it('starts a lease without a deposit', () => {
    const noDeposit = { ...terms, depositAmount: null };
    expect(given().when({ type: 'StartLease', leaseId, terms: noDeposit })).toEqual([{ type: 'lease_started', data: { leaseId, ...noDeposit } }]);
  });

  it('refuses to start a lease twice', () => {
    expect(() => given(started).when({ type: 'StartLease', leaseId, terms })).toThrow(ConflictError);
  });

  it('refuses a monthly rate of zero', () => {
    expect(() => given().when({ type: 'StartLease', leaseId, terms: { ...terms, monthlyRate: '0.00' } })).toThrow(DomainRuleError);
  });

  it('refuses a negative deposit', () => {
    expect(() => given().when({ type: 'StartLease', leaseId, terms: { ...terms, depositAmount: '-1.00' } })).toThrow(DomainRuleError);
  });

  it('refuses a rate or a deposit over the most a unit rents for, naming the field', () => {
    expect(given().when({ type: 'StartLease', leaseId, terms: { ...terms, monthlyRate: '100000.00', depositAmount: '100000.00' } })).toHaveLength(1);
    expect(() => given().when({ type: 'StartLease', leaseId, terms: { ...terms, monthlyRate: '100000.01' } })).toThrow(
      new DomainRuleError('monthlyRate: must be at most 100,000.00', 'monthlyRate'),
    );
    expect(() => given().when({ type: 'StartLease', leaseId, terms: { ...terms, depositAmount: '100000.01' } })).toThrow(
      /^depositAmount: must be at most 100,000.00$/,
    );
  });
});

describe('end lease', () => {
  it('ends an active lease, naming its customer and unit', () => {
    expect(given(started).when({ type: 'EndLease', leaseId, endDate: '2025-06-15' })).toEqual([ended]);
  });

  it('ends a lease on the day it started', () => {
    expect(given(started).when({ type: 'EndLease', leaseId, endDate: '2025-03-01' })).toHaveLength(1);
  });

  it('refuses an end date before the start date', () => {
    expect(() => given(started).when({ type: 'EndLease', leaseId, endDate: '2025-02-28' })).toThrow(DomainRuleError);
  });

  it('records nothing when an ended lease is ended again on the same day (a retry)', () => {
    expect(given(started, ended).when({ type: 'EndLease', leaseId, endDate: '2025-06-15' })).toEqual([]);
  });

  it('refuses to end a lease that has already ended on another day', () => {
    expect(() => given(started, ended).when({ type: 'EndLease', leaseId, endDate: '2025-07-01' })).toThrow(/already ended on 2025-06-15/);
  });

  it('cannot end a lease that does not exist', () => {
    expect(() => given().when({ type: 'EndLease', leaseId, endDate: '2025-06-15' })).toThrow(NotFoundError);
  });
});

describe('abandon a lease start', () => {
  const abandon = { type: 'AbandonLeaseStart', leaseId, unitId, reason: 'stopped' } as const;
  const abandoned: DomainEvent = { type: 'lease_start_abandoned', data: { leaseId, unitId, reason: 'stopped' } };

  it('gives up a lease that never started, once, so it can no longer start', () => {
    expect(given().when(abandon)).toEqual([abandoned]);
    expect(given(abandoned).when(abandon)).toEqual([]);
    expect(() => given(abandoned).when({ type: 'StartLease', leaseId, terms })).toThrow(ConflictError);
  });

  it('leaves a lease that did start', () => {
    expect(given(started).when(abandon)).toEqual([]);
    expect(given(started).when({ type: 'EndLease', leaseId, endDate: '2025-06-15' })).toEqual([ended]);
  });
});

describe('a move-out on a later day', () => {
  const schedule = { type: 'ScheduleMoveOut', leaseId, endDate: '2025-06-15', today: '2025-06-01', deposit: 'return', depositMethod: null } as const;
  const scheduled: DomainEvent = {
    type: 'lease_move_out_scheduled',
    data: { leaseId, customerId, unitId, endDate: '2025-06-15', scheduledOn: '2025-06-01', deposit: 'return', depositMethod: 'check' },
  };
  const cancelled: DomainEvent = {
    type: 'lease_move_out_cancelled',
    data: { leaseId, customerId, unitId, endDate: '2025-06-15', cancelledOn: '2025-06-10', reason: 'Staying on' },
  };
  const complete = (today: string) => ({ type: 'CompleteMoveOut', leaseId, today }) as const;

  it('is scheduled with its day and the deposit choice (a returned one by check unless said), and the lease stays active', () => {
    expect(given(started).when(schedule)).toEqual([scheduled]);
    const state = [started, scheduled].reduce(evolveLease, initialLeaseState);
    expect(state).toMatchObject({ status: 'active', moveOut: { endDate: '2025-06-15', deposit: 'return', depositMethod: 'check' } });
    expect(given(started).when({ ...schedule, deposit: null, depositMethod: 'cash' })).toEqual([
      { ...scheduled, data: { ...scheduled.data, deposit: null, depositMethod: null } },
    ]);
  });

  it('records nothing when scheduled again for the same day (a retry: the first deposit choice stands), and refuses another day until cancelled', () => {
    expect(given(started, scheduled).when({ ...schedule, deposit: 'apply' })).toEqual([]);
    expect(() => given(started, scheduled).when({ ...schedule, endDate: '2025-06-20' })).toThrow(
      new ConflictError('This lease already moves out on 2025-06-15: cancel that move-out first', 'endDate'),
    );
    expect(given(started, scheduled, cancelled).when({ ...schedule, endDate: '2025-06-20' })).toHaveLength(1);
  });

  it('refuses a day that is not after today (that move-out happens at once), one before the start, and a lease that ended or does not exist', () => {
    expect(() => given(started).when({ ...schedule, endDate: '2025-06-01' })).toThrow(DomainRuleError);
    expect(() => given(started).when({ ...schedule, endDate: '2025-02-28', today: '2025-02-01' })).toThrow(/must not be before the start date/);
    expect(() => given(started, ended).when({ ...schedule, endDate: '2025-06-20' })).toThrow(/already ended on 2025-06-15/);
    expect(given(started, ended).when(schedule)).toEqual([]);
    expect(() => given().when(schedule)).toThrow(NotFoundError);
  });

  it('is done on its day, not before, ending the lease on the scheduled day even when the day comes late (a catch-up)', () => {
    expect(given(started, scheduled).when(complete('2025-06-14'))).toEqual([]);
    expect(given(started, scheduled).when(complete('2025-06-15'))).toEqual([ended]);
    expect(given(started, scheduled).when(complete('2025-06-19'))).toEqual([ended]);
  });

  it('is done once: an ended lease, a cancelled move-out or a lease with none records nothing', () => {
    expect(given(started, scheduled, ended).when(complete('2025-06-15'))).toEqual([]);
    expect(given(started, scheduled, cancelled).when(complete('2025-06-15'))).toEqual([]);
    expect(given(started).when(complete('2025-06-15'))).toEqual([]);
  });

  it('is cancelled before its day, once; not on the day or after, nor once the lease ended', () => {
    const cancel = { type: 'CancelMoveOut', leaseId, today: '2025-06-10', reason: 'Staying on' } as const;
    expect(given(started, scheduled).when(cancel)).toEqual([cancelled]);
    expect([started, scheduled, cancelled].reduce(evolveLease, initialLeaseState)).toMatchObject({ status: 'active', moveOut: null });
    expect(given(started, scheduled, cancelled).when(cancel)).toEqual([]);
    expect(() => given(started, scheduled).when({ ...cancel, today: '2025-06-15' })).toThrow(
      new ConflictError('The move-out on 2025-06-15 is due: it can no longer be cancelled'),
    );
    expect(() => given(started, scheduled, ended).when(cancel)).toThrow(/ended on 2025-06-15/);
  });

  it('gives way to a move-out now: the lease ends on the day staff say', () => {
    const now = { type: 'EndLease', leaseId, endDate: '2025-06-05' } as const;
    expect(given(started, scheduled).when(now)).toEqual([{ ...ended, data: { ...ended.data, endDate: '2025-06-05' } }]);
  });

  it('bills the lease up to its day as a move-out that day would, and as before once it is cancelled', () => {
    const billed: DomainEvent = { type: 'lease_rent_billed', data: { leaseId, invoiceId: leaseId, periodStart: '2025-06-01', periodEnd: '2025-06-30' } };
    const endOfJune = { ...scheduled, data: { ...scheduled.data, endDate: '2025-06-30' } } as DomainEvent;
    expect(nextLeasePeriod([started, billed, endOfJune].reduce(evolveLease, initialLeaseState), defaultBillingSettings)).toBeNull();
    const endOfJuly = { ...scheduled, data: { ...scheduled.data, endDate: '2025-07-01' } } as DomainEvent;
    expect(nextLeasePeriod([started, billed, endOfJuly].reduce(evolveLease, initialLeaseState), defaultBillingSettings)).toMatchObject({
      periodStart: '2025-07-01',
      periodEnd: '2025-07-31',
    });
    const cancelledJune = { ...cancelled, data: { ...cancelled.data, endDate: '2025-06-30' } } as DomainEvent;
    expect(nextLeasePeriod([started, billed, endOfJune, cancelledJune].reduce(evolveLease, initialLeaseState), defaultBillingSettings)).toMatchObject({
      periodStart: '2025-07-01',
    });
  });
});
