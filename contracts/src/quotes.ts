import { z } from 'zod';
import { InvoiceLine } from './billing.ts';
import { Id, IsoDate } from './fields.ts';
import { LeaseStartDate } from './leases.ts';
import { DepositAmount, PositiveMonthlyRate } from './money.ts';
import { LeasePromotion, OfferedPromotion } from './promotions.ts';
import { LeaseProtection, ProtectionPlan } from './protection.ts';

// The move-in quote: what a renter pays at move-in and what the next invoice will be, computed by
// the billing engine's own rules (domain/src/billing/quote.ts), so the desk, the public site and
// the invoices the lease gets all say the same.

/** The staff's terms, as the Move In request takes them; the rate is the unit's unless given. */
export const MoveInQuoteQuery = z.strictObject({
  startDate: LeaseStartDate,
  monthlyRate: PositiveMonthlyRate.optional(),
  depositAmount: DepositAmount.optional(),
  /** A protection plan of the unit's facility. */
  protectionPlanId: Id.optional(),
  /** A promotion offered at the desk for this unit and day. */
  promotionId: Id.optional(),
});
export type MoveInQuoteQuery = z.input<typeof MoveInQuoteQuery>;

/** A visitor's move-in day; the unit's rate applies. */
export const PublicMoveInQuoteQuery = z.strictObject({ moveInDate: LeaseStartDate, protectionPlanId: Id.optional(), promotionId: Id.optional() });
export type PublicMoveInQuoteQuery = z.input<typeof PublicMoveInQuoteQuery>;

const Amount = z.string().regex(/^-?\d+\.\d{2}$/);

/** One invoice the lease will get: its days, when it is issued and due, its lines and their total. */
export const QuotedInvoice = z.object({
  kind: z.enum(['move-in', 'rent']),
  /** What the invoice says it is for, as the issued invoice says it. */
  description: z.string(),
  periodStart: IsoDate,
  periodEnd: IsoDate,
  issueDate: IsoDate,
  dueDate: IsoDate,
  lines: z.array(InvoiceLine),
  total: Amount,
});
export type QuotedInvoice = z.infer<typeof QuotedInvoice>;

/** What the billing engine bills a lease of these terms: due at move-in, and next. */
export const MoveInQuote = z.object({
  unitId: Id,
  startDate: IsoDate,
  monthlyRate: Amount,
  depositAmount: Amount.nullable(),
  /** The facility's date the quote is made on (a move-in then issues exactly `dueToday`). */
  today: IsoDate,
  /** The invoices issued at move-in: the move-in invoice, and on a backdated lease the rent already due. */
  dueToday: z.array(QuotedInvoice),
  totalDueToday: Amount,
  /** The first invoice after those (null: none, which only a lease that ends has). */
  nextInvoice: QuotedInvoice.nullable(),
  /** The plan and the promotion the quote is for (null: none). */
  protection: LeaseProtection.nullable(),
  promotion: LeasePromotion.nullable(),
  /** What may be added to this move-in: the facility's plans, the promotions that apply to it here. */
  offers: z.object({ plans: z.array(ProtectionPlan), promotions: z.array(OfferedPromotion) }),
});
export type MoveInQuote = z.infer<typeof MoveInQuote>;

/** The public site's quote: at the unit's rate, with no deposit (the site takes none). */
export const PublicMoveInQuote = MoveInQuote.omit({ depositAmount: true });
export type PublicMoveInQuote = z.infer<typeof PublicMoveInQuote>;

/** The answer to a quote for a unit that cannot be rented online now. */
export const UNIT_NOT_AVAILABLE_MESSAGE = 'This unit is not available to rent. Please choose another unit.';

/** The most units one summary request may ask about: a page of units in one read, never the whole site at once. */
export const MAX_MOVE_IN_SUMMARIES = 100;

/** The units of a page of the public list, by id, comma-separated. */
export const MoveInSummariesQuery = z.strictObject({
  unitIds: z
    .string()
    .transform((text) => [...new Set(text.split(',').map((id) => id.trim()))])
    .pipe(z.array(Id).min(1).max(MAX_MOVE_IN_SUMMARIES, `must be at most ${MAX_MOVE_IN_SUMMARIES} units`)),
});
export type MoveInSummariesQuery = z.input<typeof MoveInSummariesQuery>;

/**
 * What moving into an available unit today costs on the public site, from the same quote the
 * rent-now wizard shows (no plan, no promotion), and the promotions a move-in there today may take.
 */
export const MoveInSummary = z.object({
  unitId: Id,
  /** The facility's date: the move-in day quoted. */
  today: IsoDate,
  totalDueToday: Amount,
  promotions: z.array(OfferedPromotion),
});
export type MoveInSummary = z.infer<typeof MoveInSummary>;
