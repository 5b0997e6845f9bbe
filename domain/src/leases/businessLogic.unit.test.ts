import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
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
