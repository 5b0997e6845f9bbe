import { z } from 'zod';
import { Id, IsoDate } from './fields.ts';
import { pagingFields } from './paging.ts';

export const ReportsQuery = z.strictObject({ facilityId: Id.optional() });
export type ReportsQuery = z.input<typeof ReportsQuery>;

/** Receivables by days past their due date; `current`: not yet past due. The chart and the aging report use the same buckets. */
export const AgingBucket = z.enum(['current', '1-30', '31-60', '61-90', '90+']);
export type AgingBucket = z.infer<typeof AgingBucket>;
export const agingBucketLabels: Record<AgingBucket, string> = {
  current: 'Current',
  '1-30': '1–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  '90+': '90+ days',
};

/** YYYY-MM */
const Month = z.string().regex(/^\d{4}-\d{2}$/);

export const ReportsOverview = z.object({
  /** The last 12 calendar months (UTC), oldest first, the current month so far last; revenue: money in less refunds, from the ledger (the facilities' dates). */
  revenueByMonth: z.array(z.object({ month: Month, revenue: z.string(), payments: z.number().int() })),
  /** Each of those months' occupancy at its end (now, for the current month); rate null without units. */
  occupancyByMonth: z.array(
    z.object({
      month: Month,
      occupiedUnits: z.number().int(),
      totalUnits: z.number().int(),
      occupancyRate: z.number().nullable(),
      moveIns: z.number().int(),
      moveOuts: z.number().int(),
    }),
  ),
  agingReceivables: z.array(z.object({ bucket: AgingBucket, amount: z.string(), invoices: z.number().int() })),
  /** Average days a unit stood for rent before the lease that filled it, over the fills of those 12 months; null without fills. */
  daysToFill: z.number().nullable(),
  unitsFilled: z.number().int(),
  /** Share of the invoices that fell due in those 12 months (sent, overdue or paid) that are paid, in percent; null when none fell due. */
  paymentSuccessRate: z.number().nullable(),
  invoicesDue: z.number().int(),
});
export type ReportsOverview = z.infer<typeof ReportsOverview>;

/** The reports a button downloads as CSV: GET /api/reports/<kind>.csv */
export const reportDownloads = [
  { kind: 'rent-roll', title: 'Rent Roll' },
  { kind: 'aging', title: 'Aging Receivables' },
  { kind: 'payments-by-method', title: 'Payments by Method' },
  { kind: 'revenue-by-charge-type', title: 'Revenue by Charge Type' },
  { kind: 'sales-tax', title: 'Sales Tax' },
  { kind: 'occupancy', title: 'Occupancy' },
  { kind: 'revenue', title: 'Revenue' },
] as const;
export type ReportKind = (typeof reportDownloads)[number]['kind'];

// Reports from the ledger (issue 12): the rent roll, aging, payments by method per day and
// revenue by charge type, each as JSON for the Reports screen and as CSV.

const Amount = z.string();

/** At most a year and a day of days in one payments-by-method report. */
export const MAX_REPORT_DAYS = 366;

/** A day a report can be asked for (PostgreSQL has no year 0; nothing here is older than 1900). */
const ReportDay = IsoDate.refine((day) => day >= '1900-01-01' && day <= '2999-12-31', 'must be a date between 1900-01-01 and 2999-12-31');
/** YYYY-MM of a real month, 1900–2999. */
const ReportMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)')
  .refine((month) => month >= '1900-01' && month <= '2999-12', 'must be a month between 1900-01 and 2999-12');

const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** `from`–`to` (both included, the facility's dates); each defaults to today in the facility's zone (UTC for all facilities). */
export const PaymentsByMethodQuery = z
  .strictObject({ facilityId: Id.optional(), from: ReportDay.optional(), to: ReportDay.optional() })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    else if (q.from && q.to && daysBetween(q.from, q.to) >= MAX_REPORT_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_REPORT_DAYS} days after from` });
  });
export type PaymentsByMethodQuery = z.input<typeof PaymentsByMethodQuery>;

/** `from`–`to` months (YYYY-MM, both included); by default the last 12 months up to this one. */
export const RevenueByChargeTypeQuery = z
  .strictObject({
    facilityId: Id.optional(),
    from: ReportMonth.optional(),
    to: ReportMonth.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    else if (q.from && q.to && monthIndex(q.to) - monthIndex(q.from) >= 36)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be at most 36 months after from' });
  });
export type RevenueByChargeTypeQuery = z.input<typeof RevenueByChargeTypeQuery>;

function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

/** An active lease: who rents which unit, for which period, and what the renter owes by the ledger. */
export const RentRollRow = z.object({
  leaseId: Id,
  customerId: Id,
  facility: z.string().nullable(),
  building: z.string(),
  unitNumber: z.string(),
  size: z.string(),
  customer: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  leaseStart: IsoDate,
  /** The lease's rent in effect on the day (its newest rent change in effect by then, else its own rate). */
  monthlyRate: Amount,
  /**
   * The unit's asking (street) rate. A unit's rate is set when it is added and no event changes it,
   * so today's rate is also the rate of any earlier day: the report as of a past day shows it too.
   * Were a unit's rate ever to change, a past day would need that history, or null.
   */
  streetRate: Amount,
  /**
   * What the renter is charged for rent in the current period after the promotion: the rent line
   * (prorated, for a part month) and the discount line (negative) of that period's invoice, without
   * tax or protection. Null when no period holds the day, as currentPeriod.
   */
  ratePaid: Amount.nullable(),
  /** The name of the promotion the lease was given at its move-in (as it was then); null: none. */
  promotion: z.string().nullable(),
  deposit: Amount.nullable(),
  /** The last day the lease's rent is invoiced for; null before the engine billed it. */
  billedThrough: IsoDate.nullable(),
  /** The rent period that holds today (in the facility's zone), from the lease's invoice lines; null when none does. */
  currentPeriod: z.object({ start: IsoDate, end: IsoDate }).nullable(),
  /** The renter's balance by the ledger (all their leases together; negative: credit). */
  balance: Amount,
  /** Days since the due date of the renter's oldest unpaid invoice; 0 when nothing is past due. */
  daysPastDue: z.number().int(),
});
export type RentRollRow = z.infer<typeof RentRollRow>;
/**
 * The whole scope's figures, on every page: its leases, their rates in effect added up, their units'
 * street rates added up, and what their renters owe (each renter once). The rates paid are not added
 * up: that reads every lease's current invoice, several times the cost of these figures.
 */
export const RentRollTotals = z.object({ leases: z.number().int(), totalMonthlyRate: Amount, totalStreetRate: Amount, totalBalance: Amount });
export type RentRollTotals = z.infer<typeof RentRollTotals>;
/** A page of the rent roll (by facility, building and unit) with the scope's figures; the CSV download holds every row. */
export const RentRoll = RentRollTotals.extend({ asOf: IsoDate, rows: z.array(RentRollRow) });
export type RentRoll = z.infer<typeof RentRoll>;
/**
 * A report of receivables as they stood at the end of `asOf` (in each facility's zone), today or
 * an earlier day; by default today.
 */
export const AsOfQuery = ReportsQuery.extend({ asOf: ReportDay.optional() });
export type AsOfQuery = z.input<typeof AsOfQuery>;
/** The rent roll is paged as every list is (contracts/src/paging.ts). */
export const RentRollQuery = AsOfQuery.extend(pagingFields);
export type RentRollQuery = z.input<typeof RentRollQuery>;

const AgingAmounts = z.object({
  current: Amount,
  days1to30: Amount,
  days31to60: Amount,
  days61to90: Amount,
  days90plus: Amount,
  /** Credit on the account no invoice took yet (zero or negative). */
  credit: Amount,
  /** The ledger's balance: the buckets plus the credit. */
  balance: Amount,
  /** What the invoices do not explain of the ledger balance (0.00 when they reconcile). */
  unreconciled: Amount,
});
export const AgingRow = AgingAmounts.extend({ customerId: Id, customer: z.string(), email: z.string(), facility: z.string().nullable() });
export type AgingRow = z.infer<typeof AgingRow>;
export const AgingReport = z.object({ asOf: IsoDate, rows: z.array(AgingRow), totals: AgingAmounts });
export type AgingReport = z.infer<typeof AgingReport>;

/** One day's money of one method: payments in (positive), refunds out (negative). */
export const PaymentsByMethodRow = z.object({
  date: IsoDate,
  /** PaymentMethod; null when the history did not record it. */
  method: z.string().nullable(),
  methodLabel: z.string(),
  /** Payments (a desk receipt over several invoices counts once). */
  payments: z.number().int(),
  paid: Amount,
  refunds: z.number().int(),
  /** Zero or negative. */
  refunded: Amount,
  /** paid + refunded. */
  total: Amount,
});
export type PaymentsByMethodRow = z.infer<typeof PaymentsByMethodRow>;
export const PaymentsByMethod = z.object({
  from: IsoDate,
  to: IsoDate,
  rows: z.array(PaymentsByMethodRow),
  /** Per method over the range. */
  methods: z.array(PaymentsByMethodRow.omit({ date: true })),
  totals: PaymentsByMethodRow.omit({ date: true, method: true, methodLabel: true }),
});
export type PaymentsByMethod = z.infer<typeof PaymentsByMethod>;

/** Charges of one month by invoice line kind, with the voids and write-offs of the month apart. */
export const RevenueByChargeTypeRow = z.object({
  month: Month,
  rent: Amount,
  proratedRent: Amount,
  deposit: Amount,
  adminFee: Amount,
  lateFee: Amount,
  credit: Amount,
  adjustment: Amount,
  /** Protection plan premiums. */
  protection: Amount,
  /** Promotions' discounts (zero or negative). */
  discount: Amount,
  merchandise: Amount,
  /** The revenue charged in the month: every line but sales tax. */
  charged: Amount,
  /** Sales tax billed in the month: collected for the taxing authority (a liability), not revenue. */
  tax: Amount,
  /** Reversed by voiding invoices (zero or negative; with the tax they carried). */
  voided: Amount,
  /** Written off as bad debt (zero or negative; with the tax they carried). */
  writtenOff: Amount,
  /** charged + tax + voided + writtenOff: every cent the ledger charged, net. */
  net: Amount,
});
export type RevenueByChargeTypeRow = z.infer<typeof RevenueByChargeTypeRow>;
export const RevenueByChargeType = z.object({ rows: z.array(RevenueByChargeTypeRow), totals: RevenueByChargeTypeRow.omit({ month: true }) });
export type RevenueByChargeType = z.infer<typeof RevenueByChargeType>;

/** GET /api/reports/sales-tax: invoices issued `from`–`to` (the facility's dates; default today), at most a year and a day. */
export const SalesTaxQuery = PaymentsByMethodQuery;
export type SalesTaxQuery = z.input<typeof SalesTaxQuery>;

/** One facility's one taxable charge kind over the range. */
export const SalesTaxRow = z.object({
  facilityId: Id.nullable(),
  facility: z.string().nullable(),
  /** The charge's InvoiceLineKind (rent, prorated_rent, admin_fee, late_fee). */
  kind: z.string(),
  kindLabel: z.string(),
  /** Every line of that kind billed. */
  billed: Amount,
  /** The lines of it that carried sales tax. */
  taxable: Amount,
  /** The sales tax billed on them. */
  tax: Amount,
});
export type SalesTaxRow = z.infer<typeof SalesTaxRow>;
export const SalesTaxReport = z.object({
  from: IsoDate,
  to: IsoDate,
  rows: z.array(SalesTaxRow),
  totals: SalesTaxRow.pick({ billed: true, taxable: true, tax: true }),
});
export type SalesTaxReport = z.infer<typeof SalesTaxReport>;
