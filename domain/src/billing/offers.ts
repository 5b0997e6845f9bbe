import { type LeasePromotion, type OfferedPromotion, type PromotionContext, promotionApplies, promotionTermsWords } from '@storage/contracts/promotions';
import type { LeaseProtection } from '@storage/contracts/protection';
import { DomainRuleError } from '../commands/errors.ts';
import type { FacilityTerms } from './settings.ts';

// What a renter may add to a move-in: a protection plan of the facility's, a promotion the
// business offers for this move-in. One rule for the desk, the public site and the quote.

/** What the renter asked for: a plan and a promotion, by id (null: none). */
export interface RentalChoices {
  protectionPlanId: string | null;
  promotionId: string | null;
}

/** The plan and the promotion as the lease keeps them: their terms as they are now. */
export interface RentalExtras {
  protection: LeaseProtection | null;
  promotion: LeasePromotion | null;
}

export const NO_RENTAL_EXTRAS: RentalExtras = { protection: null, promotion: null };

/** The promotions this move-in may be given, as they are offered (words included). */
export function offeredPromotions(offers: Pick<FacilityTerms, 'promotions'>, at: PromotionContext): OfferedPromotion[] {
  return offers.promotions
    .filter((promotion) => promotionApplies(promotion, at))
    .map(({ promotionId, name, terms }) => ({ promotionId, name, terms, words: promotionTermsWords(terms) }));
}

/** The plan of the facility's with this id, as a lease keeps it; a plan the facility does not offer is refused (400 naming `field`). */
export function chosenPlan(offers: Pick<FacilityTerms, 'protection'>, planId: string, field = 'protectionPlanId'): LeaseProtection {
  const plan = offers.protection.plans.find((p) => p.planId === planId);
  if (!plan) throw new DomainRuleError(`${field}: is not a protection plan of this facility`, field);
  const { name, coverageAmount, monthlyPremium } = plan;
  return { planId, name, coverageAmount, monthlyPremium };
}

/** The plan and the promotion chosen for this move-in, checked against what the facility offers it now. */
export function rentalExtras(offers: Pick<FacilityTerms, 'protection' | 'promotions'>, choices: RentalChoices, at: PromotionContext): RentalExtras {
  const protection = choices.protectionPlanId === null ? null : chosenPlan(offers, choices.protectionPlanId);
  let promotion: LeasePromotion | null = null;
  if (choices.promotionId !== null) {
    const offered = offers.promotions.find((p) => p.promotionId === choices.promotionId);
    if (!offered) throw new DomainRuleError('promotionId: is not a promotion of this business', 'promotionId');
    if (!promotionApplies(offered, at))
      throw new DomainRuleError('promotionId: does not apply to this move-in (its unit, facility, dates or where it is taken)', 'promotionId');
    promotion = { promotionId: offered.promotionId, name: offered.name, terms: offered.terms };
  }
  return { protection, promotion };
}
