import { z } from 'zod';
import { fromCents, toCents } from './cents.ts';

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
