import { describe, expect, it } from 'vitest';
import { DepositAmount, FeeAmount, MonthlyRate, moneyLimits, PaymentAmount, PositiveMonthlyRate, withinLimit } from './money.ts';

describe('amounts within their limits', () => {
  it('takes each amount up to its limit and refuses one cent more, saying the limit', () => {
    const cases = [
      [MonthlyRate, moneyLimits.monthlyRate, '100000.01', 'must be at most 100,000.00'],
      [PositiveMonthlyRate, moneyLimits.monthlyRate, '100000.01', 'must be at most 100,000.00'],
      [DepositAmount, moneyLimits.deposit, '100000.01', 'must be at most 100,000.00'],
      [FeeAmount, moneyLimits.fee, '10000.01', 'must be at most 10,000.00'],
      [PaymentAmount, moneyLimits.payment, '1000000.01', 'must be at most 1,000,000.00'],
    ] as const;
    for (const [schema, limit, over, message] of cases) {
      expect(schema.parse(limit)).toBe(limit);
      const refused = schema.safeParse(over);
      expect(refused.success).toBe(false);
      expect(refused.error?.issues.map((i) => i.message)).toEqual([message]);
    }
  });

  it('keeps the other checks of an amount', () => {
    expect(PaymentAmount.safeParse('0.00').error?.issues.map((i) => i.message)).toEqual(['must be more than 0.00']);
    expect(PositiveMonthlyRate.safeParse('-5').error?.issues.map((i) => i.message)).toContain('must not be negative');
    expect(MonthlyRate.safeParse('12.345').error?.issues.map((i) => i.message)).toEqual(['must be an amount with at most two decimals, e.g. 120.00']);
    expect(MonthlyRate.parse(0)).toBe('0.00');
  });

  it('compares exactly, in cents', () => {
    expect(withinLimit('1000000.00', 'payment')).toBe(true);
    expect(withinLimit('1000000.01', 'payment')).toBe(false);
    expect(withinLimit('99999999999999999.99', 'payment')).toBe(false);
  });
});
