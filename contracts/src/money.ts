import { z } from 'zod';
import { formatDollars, fromCents, toCents } from './cents.ts';

export { formatDollars, fromCents, toCents } from './cents.ts';

// Money is exact: amounts travel as decimal strings ("120.00") and are computed in integer cents
// (cents.ts); these are the schemas that read them.

const decimalPattern = /^-?\d{1,8}(\.\d{1,2})?$/;

/** A decimal(10,2) amount as the API shows it: a string with exactly two decimals. */
export const Money = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => decimalPattern.test(v), { message: 'must be an amount with at most two decimals, e.g. 120.00' })
  .transform((v) => fromCents(toCents(v)));

export const NonNegativeMoney = Money.refine((v) => !v.startsWith('-'), { message: 'must not be negative' });

export const PositiveMoney = NonNegativeMoney.refine((v) => toCents(v) > 0n, { message: 'must be more than 0.00' });

/**
 * The most one amount may be, by what it is: more than any real facility charges or takes at
 * once, so that a typo is refused rather than booked. Every sum the books make of such amounts
 * (credit on an account, an invoice with its fees, a year of rent) fits their columns
 * (numeric(20, 2), as wide as a bigint of cents).
 */
export const moneyLimits = {
  /** A unit's monthly rate, a lease's, a rent change's new rate. */
  monthlyRate: '100000.00',
  /** A lease's or a reservation's deposit. */
  deposit: '100000.00',
  /** A fee a billing rule adds: the late fee (or its minimum), the admin fee. */
  fee: '10000.00',
  /** Money moving at once: a payment, a credit, a refund, an invoice staff write, a delinquency threshold. */
  payment: '1000000.00',
} as const;
export type MoneyLimit = keyof typeof moneyLimits;

/** Whether an amount is within its limit (the domain asks it of amounts it computes, such as a bulk change's new rate). */
export function withinLimit(amount: string, limit: MoneyLimit): boolean {
  return toCents(amount) <= toCents(moneyLimits[limit]);
}

/** "must be at most 100,000.00": the message of an amount over its limit. */
export function overLimitMessage(limit: MoneyLimit): string {
  return `must be at most ${formatDollars(moneyLimits[limit]).slice(1)}`;
}

const upTo = <T extends z.ZodType<string, unknown>>(schema: T, limit: MoneyLimit) =>
  schema.refine((v) => !decimalPattern.test(v) || withinLimit(v, limit), { message: overLimitMessage(limit) });

/** A unit's or a lease's monthly rate (0.00 allowed: a unit not yet priced). */
export const MonthlyRate = upTo(NonNegativeMoney, 'monthlyRate');
/** A monthly rate a lease pays or a rent change sets: more than 0.00. */
export const PositiveMonthlyRate = upTo(PositiveMoney, 'monthlyRate');
export const DepositAmount = upTo(NonNegativeMoney, 'deposit');
export const FeeAmount = upTo(NonNegativeMoney, 'fee');
/** Money moving at once (a payment, a credit, a refund, an invoice): more than 0.00. */
export const PaymentAmount = upTo(PositiveMoney, 'payment');
/** An amount of money up to what moves at once (a threshold; 0.00 allowed). */
export const NonNegativePaymentAmount = upTo(NonNegativeMoney, 'payment');
