import { formatDollars, toCents } from '@storage/contracts/money';
import type { LeaseProtection } from '@storage/contracts/protection';

// A protection plan in words, the same at the Move In and on the lease: "Basic — $2,000 coverage, $12.00/month".

/** The select's value for no plan (a select shows no option for null). */
export const NO_PLAN = '';

/** Whole dollars without cents: coverage is a round sum. */
const coverageWords = (amount: string) => (toCents(amount) % 100n === 0n ? formatDollars(amount).replace(/\.00$/, '') : formatDollars(amount));

export function planWords(plan: Pick<LeaseProtection, 'name' | 'coverageAmount' | 'monthlyPremium'>): string {
  return `${plan.name} — ${coverageWords(plan.coverageAmount)} coverage, ${formatDollars(plan.monthlyPremium)}/month`;
}

/** The plans to choose from, then none. */
export function planOptions(plans: Pick<LeaseProtection, 'planId' | 'name' | 'coverageAmount' | 'monthlyPremium'>[]) {
  return [...plans.map((plan) => ({ value: plan.planId, label: planWords(plan) })), { value: NO_PLAN, label: 'No protection plan' }];
}
