import { noSalesTax } from '@storage/contracts/billing';
import { describe, expect, it } from 'vitest';
import { unusedDaysCredit } from './move-out.ts';

// The move-out credit gives back what the unused days were charged: their rent, less the
// promotion's discount on it, with their protection premium, and the sales tax of each.

const terms = {
  customerId: '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a',
  unitId: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b',
  facilityId: null,
  startDate: '2026-03-01',
  // 10.00 a day in March.
  monthlyRate: '310.00',
  depositAmount: null,
};
const plan = { planId: '3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '31.00' };
const halfOff = { promotionId: '4a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d', name: 'Half off', terms: { kind: 'percent_off' as const, percent: '50', months: 1 } };
const tenPercent = { ...noSalesTax, rent: '10' };

describe('the move-out credit', () => {
  it('is the unused days’ rent alone when nothing rode on it', () => {
    expect(unusedDaysCredit({ terms, endDate: '2026-03-20', billedThrough: '2026-03-31' })?.amount).toBe('110.00');
  });

  it('gives back the tax, the premium, and only what the promotion left charged', () => {
    const lease = {
      terms,
      endDate: '2026-03-20',
      billedThrough: '2026-03-31',
      protection: [{ effectiveDate: '2026-03-01', protection: plan, reason: 'chosen_at_move_in' as const }],
      promotion: halfOff,
    };
    // Rent 110.00 + tax 11.00, discount -55.00 + tax -5.50, premium 11.00 (untaxed).
    expect(unusedDaysCredit(lease, tenPercent)?.amount).toBe('71.50');
    // In April the promotion is over: the whole month's rent 310.00 + tax 31.00 + premium 31.00.
    expect(unusedDaysCredit({ ...lease, endDate: '2026-03-31', billedThrough: '2026-04-30' }, tenPercent)?.amount).toBe('372.00');
  });
});
