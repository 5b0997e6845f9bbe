import { noSalesTax, type SalesTaxRates } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merchandiseLines, merchandiseTotal } from './lines.ts';

const rates = (merchandise: string): SalesTaxRates => ({ ...noSalesTax, rent: '5', merchandise });

describe('the lines of merchandise sold', () => {
  it('bills each item as name × quantity, its tax after it at the merchandise rate', () => {
    const lines = merchandiseLines(
      [
        { name: 'Disc lock', price: '24.99', taxable: true },
        { name: 'Admin fee', price: '10.00', taxable: false },
      ],
      [2, 1],
      rates('8.875'),
    );
    expect(lines).toEqual([
      { kind: 'merchandise', description: 'Disc lock × 2', amount: '49.98', periodStart: null, periodEnd: null },
      { kind: 'tax', description: 'Sales tax 8.875% on Disc lock × 2', amount: '4.44', periodStart: null, periodEnd: null },
      { kind: 'merchandise', description: 'Admin fee × 1', amount: '10.00', periodStart: null, periodEnd: null },
    ]);
    expect(merchandiseTotal(lines)).toBe('64.42');
  });

  it('adds no tax line at a zero rate', () => {
    expect(merchandiseLines([{ name: 'Tape', price: '4.00', taxable: true }], [3], rates('0')).map((l) => l.kind)).toEqual(['merchandise']);
  });

  it('is exact to the cent for any prices, quantities and rates', () => {
    const cents = fc.integer({ min: 1, max: 1_000_000 });
    const item = fc.record({ cents, taxable: fc.boolean() });
    const milliPercent = fc.integer({ min: 0, max: 25_000 });
    fc.assert(
      fc.property(fc.array(fc.tuple(item, fc.integer({ min: 1, max: 999 })), { minLength: 1, maxLength: 8 }), milliPercent, (sale, milli) => {
        const rate = `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
        const items = sale.map(([i], n) => ({ name: `Item ${n}`, price: fromCents(BigInt(i.cents)), taxable: i.taxable }));
        const lines = merchandiseLines(
          items,
          sale.map(([, q]) => q),
          rates(rate),
        );
        let expected = 0n;
        let at = 0;
        for (const [[i, quantity], n] of sale.map((s, index) => [s, index] as const)) {
          const amount = BigInt(i.cents) * BigInt(quantity);
          expect(lines[at]).toMatchObject({ kind: 'merchandise', description: `Item ${n} × ${quantity}`, amount: fromCents(amount) });
          at += 1;
          // Half up to the cent: amount × rate / 100, the rate in thousandths of a percent.
          const tax = i.taxable ? (amount * BigInt(milli) * 2n + 100_000n) / 200_000n : 0n;
          if (tax > 0n) {
            expect(lines[at]).toMatchObject({ kind: 'tax', amount: fromCents(tax) });
            at += 1;
          }
          expected += amount + tax;
        }
        expect(lines).toHaveLength(at);
        expect(toCents(merchandiseTotal(lines))).toBe(expected);
      }),
    );
  });
});
