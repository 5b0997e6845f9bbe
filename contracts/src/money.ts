import { z } from 'zod';

// Money is exact: amounts travel as decimal strings ("120.00") and are computed in integer cents.

const decimalPattern = /^-?\d{1,8}(\.\d{1,2})?$/;

export function toCents(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`Not an amount: ${amount}`);
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -cents : cents;
}

export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** A decimal(10,2) amount as the API shows it: a string with exactly two decimals. */
export const Money = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => decimalPattern.test(v), { message: 'must be an amount with at most two decimals, e.g. 120.00' })
  .transform((v) => fromCents(toCents(v)));

export const NonNegativeMoney = Money.refine((v) => !v.startsWith('-'), { message: 'must not be negative' });

/** "$1,234.50" — US dollars with thousands separators, from a decimal string. */
export function formatDollars(amount: string): string {
  const cents = toCents(amount);
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}
