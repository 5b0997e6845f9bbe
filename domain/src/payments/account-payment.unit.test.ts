import { describe, expect, it } from 'vitest';
import { amountRefusal, paymentRange } from './account-payment.ts';

describe('what a renter may pay toward their balance', () => {
  const open = [
    { dueDate: '2026-03-01', openBalance: '100.00' },
    { dueDate: '2026-03-15', openBalance: '20.50' },
    { dueDate: '2026-04-01', openBalance: '80.00' },
  ];

  it('is at least what is due today or earlier, at most the whole balance', () => {
    expect(paymentRange(open, '2026-03-15')).toEqual({ balance: '200.50', minimumDue: '120.50' });
    expect(paymentRange(open, '2026-03-14')).toEqual({ balance: '200.50', minimumDue: '100.00' });
  });

  it('is at least a cent when nothing is due yet, and nothing when nothing is owed', () => {
    expect(paymentRange(open, '2026-02-28')).toEqual({ balance: '200.50', minimumDue: '0.01' });
    expect(paymentRange([], '2026-02-28')).toEqual({ balance: '0.00', minimumDue: '0.00' });
  });

  it('refuses, naming amount, anything outside the range, and takes both ends', () => {
    const range = paymentRange(open, '2026-03-01');
    expect(amountRefusal('100.00', range)).toBeNull();
    expect(amountRefusal('200.50', range)).toBeNull();
    expect(amountRefusal('99.99', range)).toBe('amount: must be from $100.00 (the minimum due) to $200.50 (the whole balance)');
    expect(amountRefusal('200.51', range)).toMatch(/^amount: /);
    expect(amountRefusal('5.00', paymentRange([], '2026-03-01'))).toBe('amount: nothing is owed on this account');
  });
});
