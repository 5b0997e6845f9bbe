import { type BillingSettings, type InvoiceLine, noSalesTax, type SalesTaxRates, taxedLineKinds } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import type { LeasePromotion } from '@storage/contracts/promotions';
import type { LeaseProtection } from '@storage/contracts/protection';
import { addDays, addMonths, dayOfMonth, daysInclusive, daysInMonth, endOfMonth, periodWords } from './calendar.ts';

// What a lease is billed for, decided from its terms, the billing settings and how far it is
// billed already: pure functions, so the billing run, a retry and a test all reach the same lines.

/**
 * Prorated rent, exact: monthly rate × days used ÷ days in that month, rounded half up to the
 * cent (the one rounding rule of the engine). 120.00 for 19 of February's 28 days: 81.43.
 */
export function proratedRent(monthlyRate: string, days: number, monthDays: number): string {
  const numerator = toCents(monthlyRate) * BigInt(days) * 2n + BigInt(monthDays);
  return fromCents(numerator / (2n * BigInt(monthDays)));
}

/** A tax rate in percent with up to 3 decimals ("8.875"), in thousandths of a percent (8875n): exact, no float. */
function milliPercent(ratePercent: string): bigint {
  const [whole = '0', fraction = ''] = ratePercent.trim().split('.');
  return BigInt(whole || '0') * 1000n + BigInt(fraction.padEnd(3, '0').slice(0, 3) || '0');
}

/**
 * The sales tax on one line, exact: amount × rate ÷ 100, rounded half up to the cent (the engine's
 * one rounding rule, as in proratedRent). 100.00 at 8.875%: 8.88 (8.875 rounds up).
 */
export function taxOn(amount: string, ratePercent: string): string {
  const cents = toCents(amount);
  const magnitude = cents < 0n ? -cents : cents;
  const tax = (magnitude * milliPercent(ratePercent) * 2n + 100_000n) / 200_000n;
  return fromCents(cents < 0n ? -tax : tax);
}

/** The rate as people write it: 8.875, 8.5, 7 (no padding zeros). */
function rateWords(ratePercent: string): string {
  const milli = milliPercent(ratePercent);
  const fraction = String(milli % 1000n)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return fraction ? `${milli / 1000n}.${fraction}` : `${milli / 1000n}`;
}

/**
 * Each taxed line followed by its own tax line (the tax of each line on its own, so an invoice
 * shows every tax and what it is on); a zero rate, or a tax that rounds to 0.00, adds no line.
 * Deposits are never taxed.
 */
export function withSalesTax(lines: readonly InvoiceLine[], rates: SalesTaxRates = noSalesTax): InvoiceLine[] {
  return lines.flatMap((line) => {
    const tax = taxLineFor(line, rates);
    return tax ? [line, tax] : [line];
  });
}

/** The tax line of one line under `rates`, or null when it is not taxed. */
export function taxLineFor(line: InvoiceLine, rates: SalesTaxRates = noSalesTax): InvoiceLine | null {
  const which = taxedLineKinds[line.kind];
  if (!which) return null;
  const rate = rates[which];
  const amount = taxOn(line.amount, rate);
  if (toCents(amount) === 0n) return null;
  return { kind: 'tax', description: `Sales tax ${rateWords(rate)}% on ${line.description}`, amount, periodStart: null, periodEnd: null };
}

/** A new monthly rate from a date on (a scheduled rent change that was not cancelled). */
export interface RateChange {
  effectiveDate: string;
  newRate: string;
}

/**
 * The monthly rate of a period that starts on `date`: the lease's own, or the new rate of the
 * latest change effective on or before that day. A period that started before a change's
 * effective date keeps the rate it started with.
 */
export function rateOn(lease: { monthlyRate: string; rentChanges?: readonly RateChange[] | undefined }, date: string): string {
  let rate = lease.monthlyRate;
  let from = '';
  for (const change of lease.rentChanges ?? []) {
    // ISO dates compare as text; of two changes effective the same day, the later scheduled wins.
    if (change.effectiveDate <= date && change.effectiveDate >= from) {
      rate = change.newRate;
      from = change.effectiveDate;
    }
  }
  return rate;
}

/** The lease's protection plan from a date on (null: none from then). */
export interface ProtectionFrom {
  effectiveDate: string;
  protection: LeaseProtection | null;
}

export interface LeaseForBilling {
  startDate: string;
  /** The rate the lease started with. */
  monthlyRate: string;
  /** Its rent changes (absent: none). */
  rentChanges?: readonly RateChange[];
  /** Its protection plans over time, in the order chosen (absent: none). */
  protection?: readonly ProtectionFrom[];
  /** The promotion given at its move-in (absent or null: none). */
  promotion?: LeasePromotion | null;
  depositAmount: string | null;
  /** The last day already invoiced; null before the move-in invoice. */
  billedThrough: string | null;
  /** The move-out day: nothing after it is billed. */
  endDate: string | null;
}

/** One invoice the engine issues for a lease: the days it covers, its lines, when it is issued and due. */
export interface BillingPeriod {
  kind: 'move-in' | 'rent';
  periodStart: string;
  periodEnd: string;
  issueDate: string;
  dueDate: string;
  lines: InvoiceLine[];
}

/** A whole period (a calendar month from the 1st, or anniversary to anniversary) is the monthly rate; a shorter one is prorated. */
function rentLine(lease: LeaseForBilling, start: string, end: string, whole: boolean): InvoiceLine {
  const days = daysInclusive(start, end);
  const rate = rateOn(lease, start);
  if (whole) return { kind: 'rent', description: `Rent ${periodWords(start, end)}`, amount: rate, periodStart: start, periodEnd: end };
  return {
    kind: 'prorated_rent',
    description: `Prorated rent ${periodWords(start, end)} (${days} of ${daysInMonth(start)} days)`,
    amount: proratedRent(rate, days, daysInMonth(start)),
    periodStart: start,
    periodEnd: end,
  };
}

/** The protection plan for a period that starts on `date`: of the plans chosen (in order), the latest effective on or before it. */
export function protectionOn(choices: readonly ProtectionFrom[] | undefined, date: string): LeaseProtection | null {
  let current: LeaseProtection | null = null;
  for (const change of choices ?? []) {
    if (change.effectiveDate <= date) current = change.protection;
  }
  return current;
}

/** Whole months from the lease's start to `date` (its start month is 0): which month of the lease a rent line is. */
function leaseMonth(lease: LeaseForBilling, date: string): number {
  const [startYear, startMonth] = lease.startDate.split('-').map(Number) as [number, number];
  const [year, month] = date.split('-').map(Number) as [number, number];
  return (year - startYear) * 12 + (month - startMonth);
}

/** An amount a month, for the days of a rent line: the whole amount on a whole (or unprorated) month, else prorated as the rent is. */
function forLineDays(monthly: string, rent: InvoiceLine): string {
  if (rent.kind !== 'prorated_rent' || rent.periodStart === null || rent.periodEnd === null) return monthly;
  return proratedRent(monthly, daysInclusive(rent.periodStart, rent.periodEnd), daysInMonth(rent.periodStart));
}

/** A percentage (up to 2 decimals) of an amount, half up to the cent. */
function percentOf(amount: string, percent: string): string {
  const [whole = '0', fraction = ''] = percent.split('.');
  const basisPoints = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2) || '0');
  return fromCents((toCents(amount) * basisPoints * 2n + 10_000n) / 20_000n);
}

/**
 * The promotion's discount on one rent line (a negative line), or null: the promotion covers the
 * lease's first `months` months counted from the move-in month (a prorated first month is the
 * first), never takes more than the line, and an amount off or a fixed price is prorated with a
 * prorated line. The line is decided from the lease's own terms, so it is written once per period
 * whatever retries the billing makes.
 */
export function discountLine(lease: LeaseForBilling, rent: InvoiceLine): InvoiceLine | null {
  const promotion = lease.promotion;
  if (!promotion || rent.periodStart === null) return null;
  const { terms } = promotion;
  if (leaseMonth(lease, rent.periodStart) >= terms.months) return null;
  const line = toCents(rent.amount);
  let off: bigint;
  if (terms.kind === 'percent_off') off = toCents(percentOf(rent.amount, terms.percent));
  else if (terms.kind === 'amount_off') off = toCents(forLineDays(terms.amount, rent));
  else off = line - toCents(forLineDays(terms.amount, rent));
  if (off > line) off = line;
  if (off <= 0n) return null;
  return {
    kind: 'discount',
    description: `${promotion.name} on ${rent.description}`,
    amount: fromCents(-off),
    periodStart: rent.periodStart,
    periodEnd: rent.periodEnd,
  };
}

/** The protection premium for the days of one rent line (prorated with it), or null when the lease has no plan then. */
export function protectionLine(lease: LeaseForBilling, rent: InvoiceLine): InvoiceLine | null {
  if (rent.periodStart === null || rent.periodEnd === null) return null;
  const plan = protectionOn(lease.protection, rent.periodStart);
  if (!plan) return null;
  const days = rent.kind === 'prorated_rent' ? ` (${daysInclusive(rent.periodStart, rent.periodEnd)} of ${daysInMonth(rent.periodStart)} days)` : '';
  return {
    kind: 'protection',
    description: `Protection plan ${plan.name} ${periodWords(rent.periodStart, rent.periodEnd)}${days}`,
    amount: forLineDays(plan.monthlyPremium, rent),
    periodStart: rent.periodStart,
    periodEnd: rent.periodEnd,
  };
}

/** A rent line with what rides on it: the promotion's discount, then the protection premium for the same days. */
export function withRentExtras(lease: LeaseForBilling, rent: InvoiceLine): InvoiceLine[] {
  return [rent, discountLine(lease, rent), protectionLine(lease, rent)].filter((line): line is InvoiceLine => line !== null);
}

/** The lease's first anniversary after `date` (the start day of a month, or its last day when shorter). */
function nextAnniversaryAfter(lease: LeaseForBilling, date: string): string {
  let months = 0;
  while (addMonths(lease.startDate, months) <= date) months++;
  return addMonths(lease.startDate, months);
}

function isAnniversary(lease: LeaseForBilling, date: string): boolean {
  let months = 0;
  while (addMonths(lease.startDate, months) < date) months++;
  return addMonths(lease.startDate, months) === date;
}

/**
 * The move-in invoice, due at once: the first month (prorated to the month's end with billing on
 * the 1st, or a whole month on anniversary billing), the next month too when the move-in falls
 * after the chosen day, the deposit and the admin fee.
 */
export function moveInPeriod(lease: LeaseForBilling, settings: BillingSettings): BillingPeriod {
  const start = lease.startDate;
  const lines: InvoiceLine[] = [];
  let end: string;
  if (settings.billingDay === 'anniversary') {
    end = addDays(addMonths(start, 1), -1);
    lines.push(...withRentExtras(lease, rentLine(lease, start, end, true)));
  } else {
    end = endOfMonth(start);
    const firstMonth = rentLine(lease, start, end, dayOfMonth(start) === 1);
    // Not prorated: the first (partial) month costs the monthly rate.
    lines.push(
      ...withRentExtras(
        lease,
        settings.prorateFirstMonth ? firstMonth : { ...firstMonth, kind: 'rent', description: `Rent ${periodWords(start, end)}`, amount: rateOn(lease, start) },
      ),
    );
    if (settings.billNextMonthAfterDay !== null && dayOfMonth(start) > settings.billNextMonthAfterDay) {
      const nextStart = addDays(end, 1);
      end = endOfMonth(nextStart);
      lines.push(...withRentExtras(lease, rentLine(lease, nextStart, end, true)));
    }
  }
  if (lease.depositAmount !== null && toCents(lease.depositAmount) > 0n) {
    lines.push({ kind: 'deposit', description: 'Security deposit', amount: lease.depositAmount, periodStart: null, periodEnd: null });
  }
  if (toCents(settings.adminFee) > 0n) {
    lines.push({ kind: 'admin_fee', description: 'Admin fee', amount: settings.adminFee, periodStart: null, periodEnd: null });
  }
  return { kind: 'move-in', periodStart: start, periodEnd: end, issueDate: start, dueDate: start, lines: withSalesTax(lines, settings.salesTax) };
}

/**
 * The next rent period after what is billed: a calendar month (billing on the 1st) or up to the
 * day before the next anniversary; a first day that is not a period boundary (the settings
 * changed) gets a prorated stretch up to the next boundary. Issued `issueDaysBefore` days before
 * it is due on its first day. Null when the lease ended before it starts.
 */
export function nextRentPeriod(lease: LeaseForBilling, settings: BillingSettings): BillingPeriod | null {
  if (lease.billedThrough === null) return null;
  const start = addDays(lease.billedThrough, 1);
  if (lease.endDate !== null && start > lease.endDate) return null;
  const anniversary = settings.billingDay === 'anniversary';
  const end = anniversary ? addDays(nextAnniversaryAfter(lease, start), -1) : endOfMonth(start);
  const whole = anniversary ? isAnniversary(lease, start) : dayOfMonth(start) === 1;
  return {
    kind: 'rent',
    periodStart: start,
    periodEnd: end,
    issueDate: addDays(start, -settings.issueDaysBefore),
    dueDate: start,
    lines: withSalesTax(withRentExtras(lease, rentLine(lease, start, end, whole)), settings.salesTax),
  };
}

/** The period billed after what the lease is billed through: the move-in invoice first, then each rent period. */
export function nextPeriod(lease: LeaseForBilling, settings: BillingSettings): BillingPeriod | null {
  return lease.billedThrough === null ? moveInPeriod(lease, settings) : nextRentPeriod(lease, settings);
}

/**
 * Whether a period's invoice is issued by `today` (the facility's date): the move-in invoice at
 * once, whenever the lease starts; a rent period on its issue day. The billing engine and the
 * move-in quote both ask it, so the quote shows what billing issues.
 */
export function issuedBy(period: BillingPeriod, today: string): boolean {
  return period.kind === 'move-in' || period.issueDate <= today;
}

/** At most this many periods are issued in one go (twenty years of months): a guard, never reached by real leases. */
export const MAX_PERIODS_AT_ONCE = 240;

/** What the invoice of a period says it is for. */
export function invoiceDescription(period: BillingPeriod): string {
  return period.kind === 'move-in' ? 'Move-in charges' : `Rent ${periodWords(period.periodStart, period.periodEnd)}`;
}

/** The sum of an invoice's lines, exact. */
export function linesTotal(lines: readonly InvoiceLine[]): string {
  return fromCents(lines.reduce((sum, line) => sum + toCents(line.amount), 0n));
}

/** The late fee on an invoice whose rent is `rent`: the fixed amount, or the percentage with its minimum. */
export function lateFeeAmount(settings: BillingSettings, rent: string): string {
  const rule = settings.lateFee;
  if (rule.kind === 'fixed') return rule.amount;
  // Percent with up to two decimals, in basis points; half up to the cent.
  const basisPoints = BigInt(Math.round(Number(rule.percent) * 100));
  const fee = (toCents(rent) * basisPoints * 2n + 10_000n) / 20_000n;
  const minimum = toCents(rule.minimum);
  return fromCents(fee > minimum ? fee : minimum);
}

/**
 * The day the late fee is charged: `graceDays` after the due date (due on the 1st, 10 days: the
 * 11th), and never before the invoice is overdue (the day after it was due).
 */
export function lateFeeDay(dueDate: string, settings: BillingSettings): string {
  return addDays(dueDate, Math.max(settings.graceDays, 1));
}
