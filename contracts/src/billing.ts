import { z } from 'zod';
import { DeskPaymentMethod } from './enums.ts';
import { Id, IsoDate, OptionalText, RequiredText } from './fields.ts';
import { FeeAmount, formatDollars, fromCents, PaymentAmount, toCents } from './money.ts';
import { pagingFields } from './paging.ts';

// The billing engine's vocabulary: invoice lines, the billing settings (per business, overridable
// per facility) and facility time zones. The engine itself is a write-side process (domain/src/billing).

/** What an invoice line charges (or credits, with a negative amount). */
export const InvoiceLineKind = z.enum([
  'rent',
  'prorated_rent',
  'deposit',
  'admin_fee',
  'late_fee',
  'credit',
  'adjustment',
  'tax',
  /** The protection plan's premium for a period (tenant insurance). */
  'protection',
  /** A promotion's discount on a rent line (negative). */
  'discount',
  /** Goods sold at the desk or at move-in (a lock, boxes). */
  'merchandise',
]);
export type InvoiceLineKind = z.infer<typeof InvoiceLineKind>;

export const invoiceLineKindLabels: Record<InvoiceLineKind, string> = {
  rent: 'Rent',
  prorated_rent: 'Prorated rent',
  deposit: 'Deposit',
  admin_fee: 'Admin fee',
  late_fee: 'Late fee',
  credit: 'Credit',
  adjustment: 'Charge',
  tax: 'Sales tax',
  protection: 'Protection plan',
  discount: 'Promotion',
  merchandise: 'Merchandise',
};

/** One line of an invoice; rent lines name the period they cover (both days included). */
export const InvoiceLine = z.object({
  kind: InvoiceLineKind,
  description: z.string(),
  amount: z.string().regex(/^-?\d+\.\d{2}$/),
  periodStart: IsoDate.nullable(),
  periodEnd: IsoDate.nullable(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** The one line of an invoice given as a single amount (typed by staff, or written before lines): rent when it names a lease, a charge otherwise. */
export function singleLine(invoice: { leaseId: string | null; description: string | null; amount: string }): InvoiceLine {
  const kind = invoice.leaseId ? 'rent' : 'adjustment';
  return { kind, description: invoice.description ?? invoiceLineKindLabels[kind], amount: invoice.amount, periodStart: null, periodEnd: null };
}

/** A late fee: a fixed amount, or a percentage of the invoice's rent with a minimum. */
export const LateFeeRule = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('fixed'), amount: FeeAmount }),
  z.strictObject({
    kind: z.literal('percent'),
    percent: z
      .string()
      .regex(/^\d{1,2}(\.\d{1,2})?$/, 'must be a percentage such as 10 or 12.5')
      .refine((p) => Number(p) > 0, 'must be more than 0'),
    minimum: FeeAmount,
  }),
]);
export type LateFeeRule = z.infer<typeof LateFeeRule>;

/**
 * A sales tax rate in percent, up to 3 decimals (8.875), from 0 (no tax) to 25. A string, so the
 * engine computes the tax exactly (never through a float).
 */
export const TaxRate = z
  .string()
  .trim()
  .regex(/^\d{1,2}(\.\d{1,3})?$/, 'must be a percentage such as 8.875')
  .refine((rate) => Number(rate) <= 25, 'must be at most 25');
export type TaxRate = z.infer<typeof TaxRate>;

/**
 * The sales tax rates per taxable charge: rent (and prorated rent, and a promotion's discount on
 * it), the admin fee, the late fee, merchandise (settings saved before it existed: none).
 * Deposits and protection premiums are never taxed.
 */
export const SalesTaxRates = z.strictObject({ rent: TaxRate, adminFee: TaxRate, lateFee: TaxRate, merchandise: TaxRate.default('0') });
export type SalesTaxRates = z.infer<typeof SalesTaxRates>;

export const noSalesTax: SalesTaxRates = { rent: '0', adminFee: '0', lateFee: '0', merchandise: '0' };

/** The line kinds a sales tax rate applies to, and which rate (a discount lowers the rent it is taken off, so its tax too). */
export const taxedLineKinds: Partial<Record<InvoiceLineKind, keyof SalesTaxRates>> = {
  rent: 'rent',
  prorated_rent: 'rent',
  discount: 'rent',
  admin_fee: 'adminFee',
  late_fee: 'lateFee',
  merchandise: 'merchandise',
};

export const BillingSettings = z.strictObject({
  /** Rent falls due on the 1st of each month, or on the day of the month the lease started. */
  billingDay: z.enum(['first', 'anniversary']),
  /** How many days before its due date a period's rent invoice is issued and sent. */
  issueDaysBefore: z.number().int('must be a whole number').min(0, 'must be at least 0').max(28, 'must be at most 28'),
  /** Days after the due date before the late fee: with 10, rent due on the 1st gets its fee on the 11th. */
  graceDays: z.number().int('must be a whole number').min(0, 'must be at least 0').max(60, 'must be at most 60'),
  lateFee: LateFeeRule,
  /** Charged once, on the move-in invoice. */
  adminFee: FeeAmount,
  /** First month: only the days from the move-in to the end of the month (with billing on the 1st). */
  prorateFirstMonth: z.boolean(),
  /** A move-in after this day of the month also pays the next month on its move-in invoice (null: never). */
  billNextMonthAfterDay: z.number().int('must be a whole number').min(1, 'must be at least 1').max(28, 'must be at most 28').nullable(),
  /**
   * At move-out, the unused days of a period already invoiced are credited back (rent × unused
   * days ÷ days in their month, rounded half up: the proration rule). Settings saved before it
   * existed (absent): no.
   */
  moveOutCredit: z.boolean().optional(),
  /**
   * A rent change takes effect no sooner than this many days after its notice is sent. Settings
   * saved before it existed (absent): 30.
   */
  rentChangeNoticeDays: z.number().int('must be a whole number').min(0, 'must be at least 0').max(365, 'must be at most 365').default(30),
  /**
   * Sales tax per taxable charge, added as a line of its own beside each taxed line. Settings saved
   * before it existed (absent): no tax, so invoices already issued are never taxed again.
   */
  salesTax: SalesTaxRates.default(noSalesTax),
  /**
   * A move-in's gate code opens the gate only once the renter signed the lease (online, or at the
   * desk). Settings saved before it existed (absent): no, access starts with the move-in.
   */
  signatureBeforeAccess: z.boolean().optional(),
});
export type BillingSettings = z.infer<typeof BillingSettings>;

/** The lease terms of the spec: rent due on the 1st, a 25.00 late fee after the 10th. */
export const defaultBillingSettings: BillingSettings = {
  billingDay: 'first',
  issueDaysBefore: 5,
  graceDays: 10,
  lateFee: { kind: 'fixed', amount: '25.00' },
  adminFee: '0.00',
  prorateFirstMonth: true,
  billNextMonthAfterDay: null,
  moveOutCredit: false,
  rentChangeNoticeDays: 30,
  salesTax: noSalesTax,
};

/** A facility's settings: its own, or (null) the business's. */
export const FacilityBillingSettings = BillingSettings.nullable();

/** Facilities written before they had a time zone keep the engine's old reckoning: UTC. */
export const DEFAULT_TIME_ZONE = 'UTC';

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

export const TimeZone = z.string().trim().refine(isTimeZone, { message: 'must be a time zone such as America/Los_Angeles' });

/** The zones the facility form offers (any IANA zone is accepted by the API). */
export const commonTimeZones = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'UTC',
] as const;

/** A billing run's summary for staff: what it issued, and what it skipped and why. */
export const BillingRunSkip = z.object({ leaseId: z.string(), reason: z.string() });

export const BillingRun = z.object({
  id: z.string(),
  facilityId: z.string().nullable(),
  facilityName: z.string().nullable(),
  /** The facility's date the run billed for. */
  billingDate: IsoDate,
  ranAt: z.string(),
  invoicesIssued: z.number(),
  lateFeesCharged: z.number(),
  invoicesOverdue: z.number(),
  skipped: z.array(BillingRunSkip),
});
export type BillingRun = z.infer<typeof BillingRun>;

// --- Money staff take and give back ---

export const DeskPaymentRequest = z.strictObject({
  amount: PaymentAmount,
  method: DeskPaymentMethod,
  /** A check number or a transfer's reference. */
  reference: OptionalText(100),
  /** The invoices to pay, in this order; absent: the renter's open invoices, oldest due first. */
  invoiceIds: z.array(Id).min(1, 'must name at least one invoice').max(100).optional(),
});
export type DeskPaymentRequest = z.input<typeof DeskPaymentRequest>;

export const DeskReceipt = z.object({
  receiptId: Id,
  applied: z.array(z.object({ invoiceId: Id, invoiceNumber: z.string(), amount: z.string() })),
  /** Left over after every invoice it could pay: credit on the renter's account. */
  credited: z.string(),
});
export type DeskReceipt = z.infer<typeof DeskReceipt>;

/** GET /api/customers/:id/payment-plan: the amount staff are about to take at the desk. */
export const DeskPaymentPlanQuery = z.strictObject({ amount: PaymentAmount });
export type DeskPaymentPlanQuery = z.input<typeof DeskPaymentPlanQuery>;

/** What a desk payment of that amount would pay, were it taken now: the receipt it would make, before it is taken. */
export const DeskPaymentPlan = z.object({
  applied: z.array(
    z.object({
      invoiceId: Id,
      invoiceNumber: z.string(),
      /** What the payment would pay on it. */
      amount: z.string(),
      /** What the invoice owes before the payment. */
      openBalance: z.string(),
      paysInFull: z.boolean(),
    }),
  ),
  /** Left over after every open invoice: it would become credit on the renter's account. */
  credited: z.string(),
});
export type DeskPaymentPlan = z.infer<typeof DeskPaymentPlan>;

export const CreditRequest = z.strictObject({
  amount: PaymentAmount,
  reason: RequiredText(200),
});

export const ReasonRequest = z.strictObject({ reason: RequiredText(200) });

/** POST /api/payments/:id/refund: how much of the payment goes back (at most what is left unrefunded), and why. */
export const RefundRequest = z.strictObject({
  amount: PaymentAmount,
  reason: RequiredText(200),
});
export type RefundRequest = z.input<typeof RefundRequest>;

export const RefundAnswer = z.object({
  refundId: Id,
  paymentId: Id,
  invoiceId: Id,
  amount: z.string(),
  /** The provider's refund of a card payment; null for money handed back at the desk. */
  providerRefundId: z.string().nullable(),
  /** The invoice's status after the refund (a paid invoice reopens). */
  invoiceStatus: z.string(),
});
export type RefundAnswer = z.infer<typeof RefundAnswer>;

/** POST /api/customers/:id/credit-refunds: credit on the account handed back to the renter. */
export const CreditRefundRequest = z.strictObject({
  amount: PaymentAmount,
  method: DeskPaymentMethod,
  reference: OptionalText(100),
  reason: RequiredText(200),
});
export type CreditRefundRequest = z.input<typeof CreditRefundRequest>;

/** Why a credit refund of `amount` cannot be made from `credit` on the account (never more than it holds); null when it can. */
export function creditRefundRefusal(amount: string, credit: string): string | null {
  const available = toCents(credit) > 0n ? toCents(credit) : 0n;
  return toCents(amount) > available ? `must be at most ${formatDollars(fromCents(available))}, the credit on the account` : null;
}

/** GET /api/settings/billing: the settings of the business and (with facilityId) of that facility. */
export const BillingSettingsQuery = z.strictObject({ facilityId: Id.optional() });
export type BillingSettingsQuery = z.input<typeof BillingSettingsQuery>;

/** The scope's billing settings: each scope's own (null: it has none) and those that apply. */
export const BillingSettingsAnswer = z.object({
  /** The business's own settings; null: the defaults, with the Payments card's late fee. */
  business: BillingSettings.nullable(),
  /** The facility's own settings; null: it follows the business's (always null without facilityId). */
  facility: BillingSettings.nullable(),
  /** The settings that apply: the facility's own, else the business's, else the defaults. */
  effective: BillingSettings,
});
export type BillingSettingsAnswer = z.infer<typeof BillingSettingsAnswer>;

/** PUT /api/settings/billing: facilityId null saves the business's; settings null follows the business's (or the defaults) again. */
export const UpdateBillingSettingsRequest = z.strictObject({
  facilityId: Id.nullable(),
  settings: BillingSettings.nullable(),
});
export type UpdateBillingSettingsRequest = z.input<typeof UpdateBillingSettingsRequest>;

/** GET /api/billing-runs: newest first, all facilities unless one is named. */
export const ListBillingRunsQuery = z.strictObject({
  facilityId: Id.optional(),
  ...pagingFields,
});
export type ListBillingRunsQuery = z.input<typeof ListBillingRunsQuery>;
