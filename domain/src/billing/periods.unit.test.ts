import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type LeaseForBilling,
  lateFeeAmount,
  lateFeeDay,
  linesTotal,
  moveInPeriod,
  nextRentPeriod,
  proratedRent,
  taxLineFor,
  taxOn,
  withSalesTax,
} from './periods.ts';

const lease = (overrides: Partial<LeaseForBilling> = {}): LeaseForBilling => ({
  startDate: '2026-02-10',
  monthlyRate: '120.00',
  depositAmount: null,
  billedThrough: null,
  endDate: null,
  ...overrides,
});
const settings = (overrides: Partial<BillingSettings> = {}): BillingSettings => ({ ...defaultBillingSettings, ...overrides });
const amounts = (lines: { amount: string }[]) => lines.map((l) => l.amount);

describe('proration', () => {
  it('is the monthly rate times the days used over the days in the month, half up to the cent', () => {
    expect(proratedRent('120.00', 19, 28)).toBe('81.43'); // 81.428…
    expect(proratedRent('100.00', 1, 30)).toBe('3.33'); // 3.333…
    expect(proratedRent('0.10', 5, 20)).toBe('0.03'); // 0.025 rounds up
    expect(proratedRent('1234.56', 31, 31)).toBe('1234.56');
  });
});

describe('the move-in invoice', () => {
  it('bills the rest of the month prorated, the deposit and the admin fee, due on the move-in day', () => {
    const period = moveInPeriod(lease({ depositAmount: '120.00' }), settings({ adminFee: '20.00' }));
    expect(period).toMatchObject({ periodStart: '2026-02-10', periodEnd: '2026-02-28', issueDate: '2026-02-10', dueDate: '2026-02-10' });
    expect(period.lines.map((l) => l.kind)).toEqual(['prorated_rent', 'deposit', 'admin_fee']);
    expect(amounts(period.lines)).toEqual(['81.43', '120.00', '20.00']);
    expect(period.lines[0]!.description).toBe('Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)');
  });

  it('bills a whole month for a move-in on the 1st, and no deposit line for none', () => {
    const period = moveInPeriod(lease({ startDate: '2026-03-01' }), settings());
    expect(period.lines).toEqual([
      { kind: 'rent', description: 'Rent Mar 1 – Mar 31, 2026', amount: '120.00', periodStart: '2026-03-01', periodEnd: '2026-03-31' },
    ]);
  });

  it('charges the whole first month when proration is off', () => {
    expect(amounts(moveInPeriod(lease(), settings({ prorateFirstMonth: false })).lines)).toEqual(['120.00']);
  });

  it('adds the next month for a move-in after the chosen day', () => {
    const late = moveInPeriod(lease({ startDate: '2026-02-20' }), settings({ billNextMonthAfterDay: 15 }));
    expect(late.periodEnd).toBe('2026-03-31');
    expect(amounts(late.lines)).toEqual(['38.57', '120.00']);
    expect(moveInPeriod(lease({ startDate: '2026-02-15' }), settings({ billNextMonthAfterDay: 15 })).periodEnd).toBe('2026-02-28');
  });

  it('bills anniversary to the day before the next one on anniversary billing', () => {
    const period = moveInPeriod(lease(), settings({ billingDay: 'anniversary' }));
    expect(period).toMatchObject({ periodStart: '2026-02-10', periodEnd: '2026-03-09' });
    expect(amounts(period.lines)).toEqual(['120.00']);
  });
});

describe('the next rent period', () => {
  it('is the next calendar month, issued the chosen days before it is due on the 1st', () => {
    const period = nextRentPeriod(lease({ billedThrough: '2026-02-28' }), settings({ issueDaysBefore: 5 }))!;
    expect(period).toMatchObject({ periodStart: '2026-03-01', periodEnd: '2026-03-31', issueDate: '2026-02-24', dueDate: '2026-03-01' });
    expect(period.lines).toEqual([
      { kind: 'rent', description: 'Rent Mar 1 – Mar 31, 2026', amount: '120.00', periodStart: '2026-03-01', periodEnd: '2026-03-31' },
    ]);
  });

  it('follows the anniversary, on the last day of a shorter month', () => {
    const jan31 = lease({ startDate: '2026-01-31', billedThrough: '2026-02-27' });
    const period = nextRentPeriod(jan31, settings({ billingDay: 'anniversary', issueDaysBefore: 0 }))!;
    expect(period).toMatchObject({ periodStart: '2026-02-28', periodEnd: '2026-03-30', dueDate: '2026-02-28' });
    expect(amounts(period.lines)).toEqual(['120.00']);
  });

  it('prorates up to the next boundary when billing moved from the anniversary to the 1st', () => {
    const period = nextRentPeriod(lease({ billedThrough: '2026-03-09' }), settings())!;
    expect(period).toMatchObject({ periodStart: '2026-03-10', periodEnd: '2026-03-31' });
    expect(period.lines[0]).toMatchObject({ kind: 'prorated_rent', amount: '85.16' });
  });

  it('bills nothing after the move-out, and nothing before the move-in invoice', () => {
    expect(nextRentPeriod(lease({ billedThrough: '2026-03-31', endDate: '2026-03-20' }), settings())).toBeNull();
    expect(nextRentPeriod(lease(), settings())).toBeNull();
  });
});

describe('late fees', () => {
  it('is the fixed fee, or the percentage of the rent with its minimum', () => {
    expect(lateFeeAmount(settings(), '120.00')).toBe('25.00');
    expect(lateFeeAmount(settings({ lateFee: { kind: 'percent', percent: '10', minimum: '5.00' } }), '120.00')).toBe('12.00');
    expect(lateFeeAmount(settings({ lateFee: { kind: 'percent', percent: '12.5', minimum: '20.00' } }), '120.00')).toBe('20.00');
    expect(lateFeeAmount(settings({ lateFee: { kind: 'percent', percent: '7.25', minimum: '0.00' } }), '99.99')).toBe('7.25');
  });

  it('falls on the 11th for rent due on the 1st with 10 grace days, and never before the invoice is overdue', () => {
    expect(lateFeeDay('2026-03-01', settings())).toBe('2026-03-11');
    expect(lateFeeDay('2026-03-01', settings({ graceDays: 0 }))).toBe('2026-03-02');
  });
});

describe('sales tax', () => {
  const taxed = (overrides: Partial<BillingSettings['salesTax']> = {}) => ({ rent: '0', adminFee: '0', lateFee: '0', merchandise: '0', ...overrides });

  it('is the amount times the rate, half up to the cent', () => {
    expect(taxOn('100.00', '8.875')).toBe('8.88'); // 8.875 rounds up
    expect(taxOn('81.43', '8.875')).toBe('7.23'); // 7.2269…
    expect(taxOn('0.04', '12.5')).toBe('0.01'); // 0.005 rounds up
    expect(taxOn('0.03', '12.5')).toBe('0.00'); // 0.00375
    expect(taxOn('100000.00', '25')).toBe('25000.00');
    expect(taxOn('20.00', '0')).toBe('0.00');
    expect(taxOn('20.00', '0.001')).toBe('0.00');
    expect(taxOn('-100.00', '8.875')).toBe('-8.88');
  });

  it('is never more than half a cent from the exact tax (exact rational arithmetic)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000_000_000n }), fc.integer({ min: 0, max: 25_000 }), (amountCents, milli) => {
        const rate = `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
        const tax = toCents(taxOn(fromCents(amountCents), rate));
        // Exact tax in cents is amountCents × milli ÷ 100000; |tax − exact| ≤ ½ ⇔ |200000·tax − 2·amountCents·milli| ≤ 100000.
        const difference = 200_000n * tax - 2n * amountCents * BigInt(milli);
        expect(difference <= 100_000n && difference >= -100_000n).toBe(true);
        // Half up: a tie goes to the larger cent.
        expect(difference).not.toBe(-100_000n);
      }),
    );
  });

  it('adds a tax line after each taxed line of the move-in, never on the deposit', () => {
    const period = moveInPeriod(
      lease({ depositAmount: '120.00' }),
      settings({ adminFee: '20.00', salesTax: taxed({ rent: '8.875', adminFee: '5', lateFee: '1' }) }),
    );
    expect(period.lines.map((l) => l.kind)).toEqual(['prorated_rent', 'tax', 'deposit', 'admin_fee', 'tax']);
    expect(amounts(period.lines)).toEqual(['81.43', '7.23', '120.00', '20.00', '1.00']);
    expect(period.lines[1]!.description).toBe('Sales tax 8.875% on Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)');
    expect(period.lines[4]!.description).toBe('Sales tax 5% on Admin fee');
    expect(linesTotal(period.lines)).toBe('229.66');
  });

  it('taxes a whole month of rent, and the next month a late move-in pays', () => {
    const period = moveInPeriod(lease({ startDate: '2026-02-25' }), settings({ billNextMonthAfterDay: 20, salesTax: taxed({ rent: '10.5' }) }));
    expect(period.lines.map((l) => [l.kind, l.amount])).toEqual([
      ['prorated_rent', '17.14'],
      ['tax', '1.80'],
      ['rent', '120.00'],
      ['tax', '12.60'],
    ]);
    const next = nextRentPeriod(lease({ billedThrough: '2026-03-31' }), settings({ salesTax: taxed({ rent: '10.5' }) }))!;
    expect(next.lines).toEqual([
      { kind: 'rent', description: 'Rent Apr 1 – Apr 30, 2026', amount: '120.00', periodStart: '2026-04-01', periodEnd: '2026-04-30' },
      { kind: 'tax', description: 'Sales tax 10.5% on Rent Apr 1 – Apr 30, 2026', amount: '12.60', periodStart: null, periodEnd: null },
    ]);
  });

  it('taxes a late fee line with the late fee rate', () => {
    const fee = { kind: 'late_fee' as const, description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null };
    expect(taxLineFor(fee, taxed({ lateFee: '7.25' }))).toEqual({
      kind: 'tax',
      description: 'Sales tax 7.25% on Late fee',
      amount: '1.81',
      periodStart: null,
      periodEnd: null,
    });
    expect(taxLineFor(fee, taxed({ rent: '7.25' }))).toBeNull();
  });

  it('adds no line for a zero rate, or for settings saved before sales tax existed', () => {
    expect(moveInPeriod(lease({ depositAmount: '50.00' }), settings({ adminFee: '20.00' })).lines.map((l) => l.kind)).toEqual([
      'prorated_rent',
      'deposit',
      'admin_fee',
    ]);
    const deposit = { kind: 'deposit' as const, description: 'Security deposit', amount: '50.00', periodStart: null, periodEnd: null };
    expect(withSalesTax([deposit], taxed({ rent: '25', adminFee: '25', lateFee: '25' }))).toEqual([deposit]);
  });
});
