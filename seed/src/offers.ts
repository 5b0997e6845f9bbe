// What the demo business sells besides rent: its protection plans, its promotions and the
// merchandise each facility keeps at the desk. The ids are handed in (drawn from the seed), so the
// same seed names the same plans, offers and items.

import type { UnitSize } from '@storage/contracts/enums';
import type { Promotion } from '@storage/contracts/promotions';
import type { ProtectionSettings } from '@storage/contracts/protection';

export const DEMO_PLANS = [
  { name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' },
  { name: 'Standard', coverageAmount: '5000.00', monthlyPremium: '18.00' },
  { name: 'Premium', coverageAmount: '10000.00', monthlyPremium: '29.00' },
] as const;

/** Renters without a plan or their own insurance are put on Basic a month after moving in. */
export const DEMO_ENROLL_AFTER_DAYS = 30;

export function demoProtectionSettings(planIds: readonly string[]): ProtectionSettings {
  const plans = DEMO_PLANS.map((plan, i) => ({ planId: planIds[i]!, ...plan }));
  return { plans, defaultPlanId: plans[0]!.planId, enrollAfterDays: DEMO_ENROLL_AFTER_DAYS };
}

/** The sizes "Half off 2 months" applies to: 10x10 and larger. */
export const HALF_OFF_SIZES: readonly UnitSize[] = ['10x10', '10x15', '10x20', '10x25', '15x20', '20x20', '20x30'];

/** First month free for renting on the public site; half off two months of a 10x10 or larger, online or at the desk. */
export function demoPromotions(firstMonthFreeId: string, halfOffId: string): Promotion[] {
  const open = { facilityIds: [], startsOn: null, endsOn: null, active: true };
  return [
    {
      promotionId: firstMonthFreeId,
      name: 'First month free',
      terms: { kind: 'percent_off', percent: '100', months: 1 },
      channel: 'online',
      unitSizes: [],
      ...open,
    },
    {
      promotionId: halfOffId,
      name: 'Half off 2 months',
      terms: { kind: 'percent_off', percent: '50', months: 2 },
      channel: 'both',
      unitSizes: [...HALF_OFF_SIZES],
      ...open,
    },
  ];
}

/**
 * The desk's shelf at every facility: how many of each are on it today (tape is running low), how
 * many a renter buys at once, and how many came in with the one restock.
 */
export const DEMO_MERCHANDISE = [
  { name: 'Disc lock', price: '19.99', taxable: true, stockToday: 25, perSale: [1, 2], restock: 10 },
  { name: 'Small box', price: '2.50', taxable: true, stockToday: 40, perSale: [5, 15], restock: 0 },
  { name: 'Medium box', price: '3.50', taxable: true, stockToday: 8, perSale: [2, 6], restock: 0 },
  { name: 'Packing tape', price: '4.99', taxable: true, stockToday: 2, perSale: [1, 2], restock: 0 },
] as const;

/** Oak Hill (Austin, TX) charges its state and city sales tax on merchandise; rent and fees are not taxed. */
export const DEMO_MERCHANDISE_TAX = { facilityCode: 'OH', rate: '8.25' } as const;
