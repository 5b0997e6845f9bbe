import { clearingThreshold, type DelinquencyStep, defaultDelinquencySteps } from '@storage/contracts/delinquency';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError } from '../commands/errors.ts';
import { decideClear, decideDelinquencyDay, decidePause, decideResume, type PastDueInvoice } from './businessLogic.ts';
import { evolveDelinquency, initialDelinquencyState } from './delinquency.ts';

const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const older = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e05';
const newer = '8c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e06';
const state = (...events: DomainEvent[]) => events.reduce(evolveDelinquency, initialDelinquencyState);
const december: PastDueInvoice = { invoiceId: older, dueDate: '2026-12-01', open: '120.00' };
const january: PastDueInvoice = { invoiceId: newer, dueDate: '2027-01-01', open: '120.00' };
const day = (today: string, invoices: PastDueInvoice[] = [december], schedule: readonly DelinquencyStep[] = defaultDelinquencySteps) =>
  ({ customerId, today, schedule, invoices, clearAt: clearingThreshold(schedule) }) as const;
const kinds = (events: DomainEvent[]) => events.map((e) => (e.type === 'delinquency_step_taken' ? `${e.data.kind}@${e.data.day}` : e.type));
const taken = (kind: DelinquencyStep['kind'], dayNumber: number, date: string, invoiceId = older): DomainEvent => ({
  type: 'delinquency_step_taken',
  data: { customerId, kind, day: dayNumber, invoiceId, date, pastDue: '120.00' },
});

describe('the daily steps', () => {
  it('fires nothing before the first step day, then the step on its day, naming the rule, the invoice, the date and the past-due balance', () => {
    expect(decideDelinquencyDay(state(), day('2026-12-05'))).toEqual([]);
    expect(decideDelinquencyDay(state(), day('2026-12-06'))).toEqual([
      { type: 'delinquency_step_taken', data: { customerId, kind: 'late_notice', day: 5, invoiceId: older, date: '2026-12-06', pastDue: '120.00' } },
    ]);
  });

  it('fires a step once per invoice and kind', () => {
    expect(decideDelinquencyDay(state(taken('late_notice', 5, '2026-12-06')), day('2026-12-07'))).toEqual([]);
  });

  it('catches up every missed step in schedule order', () => {
    expect(kinds(decideDelinquencyDay(state(taken('late_notice', 5, '2026-12-06')), day('2027-01-31')))).toEqual([
      'lockout@15',
      'pre_lien_notice@30',
      'lien@45',
      'auction_scheduled@60',
    ]);
  });

  it('counts from the oldest past-due invoice, and the past-due balance is every past-due invoice', () => {
    const events = decideDelinquencyDay(state(), day('2027-01-07', [january, december]));
    expect(events.every((e) => e.type === 'delinquency_step_taken' && e.data.invoiceId === older && e.data.pastDue === '240.00')).toBe(true);
    expect(kinds(events)).toEqual(['late_notice@5', 'lockout@15', 'pre_lien_notice@30']);
  });

  it('holds every step while paused (until the day included), and takes them once the pause has passed', () => {
    const paused = state({ type: 'delinquency_paused', data: { customerId, until: '2026-12-20', reason: 'Promised to pay on the 20th' } });
    expect(decideDelinquencyDay(paused, day('2026-12-20'))).toEqual([]);
    expect(kinds(decideDelinquencyDay(paused, day('2026-12-21')))).toEqual(['late_notice@5', 'lockout@15']);
    const resumed = evolveDelinquency(paused, { type: 'delinquency_resumed', data: { customerId, reason: 'Did not pay' } });
    expect(kinds(decideDelinquencyDay(resumed, day('2026-12-16')))).toEqual(['late_notice@5', 'lockout@15']);
  });

  it('fires a step only while the past-due balance is above its threshold', () => {
    const schedule: DelinquencyStep[] = [
      { kind: 'late_notice', day: 5, threshold: '0.00' },
      { kind: 'lockout', day: 15, threshold: '120.00' },
    ];
    expect(kinds(decideDelinquencyDay(state(), day('2026-12-16', [december], schedule)))).toEqual(['late_notice@5']);
    const more = { ...december, open: '120.01' };
    expect(kinds(decideDelinquencyDay(state(), day('2026-12-16', [more], schedule)))).toEqual(['late_notice@5', 'lockout@15']);
  });

  it('clears a delinquent renter whose past-due balance fell to the lockout threshold, and only one with steps since the last clear', () => {
    const delinquent = state(taken('late_notice', 5, '2026-12-06'));
    expect(decideDelinquencyDay(delinquent, day('2026-12-08', []))).toEqual([
      { type: 'delinquency_cleared', data: { customerId, date: '2026-12-08', pastDue: '0.00', reason: 'Past-due balance 0.00 is at or below 0.00' } },
    ]);
    expect(decideDelinquencyDay(state(), day('2026-12-08', []))).toEqual([]);
    const cleared = evolveDelinquency(delinquent, decideDelinquencyDay(delinquent, day('2026-12-08', []))[0]!);
    expect(decideDelinquencyDay(cleared, day('2026-12-09', []))).toEqual([]);
  });
});

describe('clearing after a payment', () => {
  const check = (pastDue: string, clearAt = '0.00') => ({ customerId, date: '2026-12-20', pastDue, clearAt, reason: 'Payment of $120.00 (Cash) on INV-1' });
  const delinquent = state(taken('lockout', 15, '2026-12-16'));

  it('clears at or below the threshold, not above it, and a repeat decides nothing', () => {
    expect(kinds(decideClear(delinquent, check('0.00')))).toEqual(['delinquency_cleared']);
    expect(kinds(decideClear(delinquent, check('50.00', '50.00')))).toEqual(['delinquency_cleared']);
    expect(decideClear(delinquent, check('50.01', '50.00'))).toEqual([]);
    const cleared = decideClear(delinquent, check('0.00')).reduce(evolveDelinquency, delinquent);
    expect(decideClear(cleared, check('0.00'))).toEqual([]);
  });

  it('leaves a renter with no steps alone', () => {
    expect(decideClear(state(), check('0.00'))).toEqual([]);
  });
});

describe('pause and resume', () => {
  const today = '2026-12-10';
  it('pauses until a date after today and at most 90 days ahead', () => {
    expect(decidePause(state(), { customerId, until: '2026-12-11', reason: 'Promise', today })).toEqual([
      { type: 'delinquency_paused', data: { customerId, until: '2026-12-11', reason: 'Promise' } },
    ]);
    expect(() => decidePause(state(), { customerId, until: today, reason: 'Promise', today })).toThrow(DomainRuleError);
    expect(decidePause(state(), { customerId, until: '2027-03-10', reason: 'Promise', today })).toHaveLength(1);
    expect(() => decidePause(state(), { customerId, until: '2027-03-11', reason: 'Promise', today })).toThrow(/at most 90 days/);
  });

  it('resumes only a pause that still holds', () => {
    const paused = state({ type: 'delinquency_paused', data: { customerId, until: '2026-12-12', reason: 'Promise' } });
    expect(kinds(decideResume(paused, { customerId, reason: 'Paid part', today }))).toEqual(['delinquency_resumed']);
    expect(() => decideResume(paused, { customerId, reason: 'Late', today: '2026-12-13' })).toThrow(ConflictError);
    expect(() => decideResume(state(), { customerId, reason: 'x', today })).toThrow(ConflictError);
  });
});
