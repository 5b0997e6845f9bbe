import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Id, IsoDate, RequiredText } from './fields.ts';
import { formatDollars, PositiveMonthlyRate } from './money.ts';

// Promotions: the business's offers on rent (first month free, a first month at a fixed price, a
// percentage or an amount off for some months), where they apply, and the terms a lease keeps once
// one is applied at its move-in. The billing engine turns those terms into discount lines.

/** percent_off: value is a percentage (100: free); amount_off: value is taken off each month; fixed_price: each month costs value. */
export const PromotionKind = z.enum(['percent_off', 'amount_off', 'fixed_price']);
export type PromotionKind = z.infer<typeof PromotionKind>;

/** Where a promotion may be taken: on the public site, at the desk, or both. */
export const PromotionChannel = z.enum(['online', 'desk', 'both']);
export type PromotionChannel = z.infer<typeof PromotionChannel>;

export const promotionChannelLabels: Record<PromotionChannel, string> = { online: 'Online only', desk: 'Desk only', both: 'Online and at the desk' };

const Percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be a percentage such as 50 or 12.5')
  .refine((p) => Number(p) > 0 && Number(p) <= 100, 'must be more than 0 and at most 100');

/** What a lease is given: the kind, its value, and for how many months of rent from the move-in. */
export const PromotionTerms = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('percent_off'), percent: Percent, months: z.number().int().min(1).max(24) }),
  z.strictObject({ kind: z.literal('amount_off'), amount: PositiveMonthlyRate, months: z.number().int().min(1).max(24) }),
  z.strictObject({ kind: z.literal('fixed_price'), amount: PositiveMonthlyRate, months: z.number().int().min(1).max(24) }),
]);
export type PromotionTerms = z.infer<typeof PromotionTerms>;

export const Promotion = z
  .strictObject({
    promotionId: Id,
    name: RequiredText(60),
    terms: PromotionTerms,
    channel: PromotionChannel,
    /** The facilities it applies at (empty: all). */
    facilityIds: z.array(Id).max(200),
    /** The unit sizes it applies to (empty: all). */
    unitSizes: z.array(UnitSize).max(20),
    /** The move-in days it applies to, both included (null: open). */
    startsOn: IsoDate.nullable(),
    endsOn: IsoDate.nullable(),
    /** A promotion switched off is offered no more; leases that have it keep it. */
    active: z.boolean(),
  })
  .refine((p) => p.startsOn === null || p.endsOn === null || p.startsOn <= p.endsOn, { path: ['endsOn'], message: 'must be on or after the start' });
export type Promotion = z.infer<typeof Promotion>;

export const Promotions = z
  .array(Promotion)
  .max(50, 'must be at most 50 promotions')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((p, index) => {
      if (seen.has(p.promotionId)) ctx.addIssue({ code: 'custom', path: [index, 'promotionId'], message: 'must not repeat a promotion id' });
      seen.add(p.promotionId);
    });
  });

/** PUT /api/settings/promotions: the business's promotions, all of them. */
export const UpdatePromotionsRequest = z.strictObject({ promotions: Promotions });
export type UpdatePromotionsRequest = z.input<typeof UpdatePromotionsRequest>;

/** The promotion a lease was given at its move-in, as it was then. */
export const LeasePromotion = z.object({ promotionId: Id, name: z.string(), terms: PromotionTerms });
export type LeasePromotion = z.infer<typeof LeasePromotion>;

/** Where a move-in happens and for what: what a promotion's eligibility is checked against. */
export interface PromotionContext {
  channel: 'online' | 'desk';
  facilityId: string | null;
  unitSize: UnitSize;
  /** The move-in day (the lease's start). */
  moveInDate: string;
}

/** Whether a promotion may be given to this move-in (the one rule: the desk, the site and the move-in command ask it). */
export function promotionApplies(promotion: Promotion, at: PromotionContext): boolean {
  if (!promotion.active) return false;
  if (promotion.channel !== 'both' && promotion.channel !== at.channel) return false;
  if (promotion.facilityIds.length > 0 && (at.facilityId === null || !promotion.facilityIds.includes(at.facilityId))) return false;
  if (promotion.unitSizes.length > 0 && !promotion.unitSizes.includes(at.unitSize)) return false;
  if (promotion.startsOn !== null && at.moveInDate < promotion.startsOn) return false;
  if (promotion.endsOn !== null && at.moveInDate > promotion.endsOn) return false;
  return true;
}

/** "First month free", "50% off for 3 months", "$1.00 first month", "$20.00 off for 2 months". */
export function promotionTermsWords(terms: PromotionTerms): string {
  const months = terms.months === 1 ? 'first month' : `first ${terms.months} months`;
  switch (terms.kind) {
    case 'percent_off':
      return Number(terms.percent) === 100
        ? terms.months === 1
          ? 'First month free'
          : `First ${terms.months} months free`
        : `${terms.percent}% off the ${months}`;
    case 'amount_off':
      return `${formatDollars(terms.amount)} off the ${months}`;
    case 'fixed_price':
      return `${formatDollars(terms.amount)} a month for the ${months}`;
  }
}

/** A promotion as the public site and the Move In dialog offer it. */
export const OfferedPromotion = z.object({ promotionId: Id, name: z.string(), terms: PromotionTerms, words: z.string() });
export type OfferedPromotion = z.infer<typeof OfferedPromotion>;

/** 'Half off: 50% off the first 2 months'; a name that already says its terms ('First month free') alone. */
export function offeredPromotionLabel(promotion: Pick<OfferedPromotion, 'name' | 'words'>): string {
  return promotion.name.trim().toLowerCase() === promotion.words.trim().toLowerCase() ? promotion.name : `${promotion.name}: ${promotion.words}`;
}
