import { fromCents, toCents } from '@storage/contracts/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePayment } from './allocation.ts';

const cents = (amount: string) => toCents(amount);
const sum = (amounts: readonly string[]) => amounts.reduce((total, amount) => total + cents(amount), 0n);

describe('how one payment spreads over invoices', () => {
  const invoices = [
    { invoiceId: 'oldest', openBalance: '60.00' },
    { invoiceId: 'paid-already', openBalance: '0.00' },
    { invoiceId: 'next', openBalance: '50.00' },
    { invoiceId: 'newest', openBalance: '25.50' },
  ];

  it('pays each in the order given as far as it owes, and part of the last one when it runs out', () => {
    expect(allocatePayment('80.00', invoices)).toEqual({
      allocations: [
        { invoiceId: 'oldest', amount: '60.00' },
        { invoiceId: 'next', amount: '20.00' },
      ],
      credit: '0.00',
    });
  });

  it('keeps what is left over after every invoice as credit, and all of it when nothing is owed', () => {
    expect(allocatePayment('150.00', invoices).credit).toBe('14.50');
    expect(allocatePayment('12.34', [])).toEqual({ allocations: [], credit: '12.34' });
  });

  const owed = fc
    .array(fc.bigInt({ min: 0n, max: 500_000n }), { maxLength: 8 })
    .map((balances) => balances.map((open, i) => ({ invoiceId: `invoice-${i}`, openBalance: fromCents(open) })));
  const amount = fc.bigInt({ min: 1n, max: 2_000_000n }).map(fromCents);

  it('applies min(amount, what is owed) in exact cents, no invoice more than it owes, the rest as credit', () => {
    fc.assert(
      fc.property(owed, amount, (open, paid) => {
        const { allocations, credit } = allocatePayment(paid, open);
        const total = sum(open.map((invoice) => invoice.openBalance));
        const applied = sum(allocations.map((a) => a.amount));
        expect(applied).toBe(cents(paid) < total ? cents(paid) : total);
        expect(applied + cents(credit)).toBe(cents(paid));
        expect(cents(credit)).toBeGreaterThanOrEqual(0n);
        for (const allocation of allocations) {
          const invoice = open.find((i) => i.invoiceId === allocation.invoiceId)!;
          expect(cents(allocation.amount)).toBeGreaterThan(0n);
          expect(cents(allocation.amount)).toBeLessThanOrEqual(cents(invoice.openBalance));
          expect(allocation.amount).toMatch(/^\d+\.\d{2}$/);
        }
        // Oldest first: only the last invoice paid can be paid in part, and credit only once every one is paid.
        for (const allocation of allocations.slice(0, -1)) {
          expect(allocation.amount).toBe(open.find((i) => i.invoiceId === allocation.invoiceId)!.openBalance);
        }
        if (cents(credit) > 0n) expect(applied).toBe(total);
      }),
    );
  });
});
