import type { BillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import type { LeasePromotion, PromotionContext } from '@storage/contracts/promotions';
import type { LeaseProtection } from '@storage/contracts/protection';
import { type MoveInQuote, type MoveInSummary, type PublicMoveInQuote, type QuotedInvoice, UNIT_NOT_AVAILABLE_MESSAGE } from '@storage/contracts/quotes';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, loadAggregate } from '../commands/handle.ts';
import { requireMoveInNotPast } from '../reservations/businessLogic.ts';
import { type UnitState, unitAggregate } from '../units/unit.ts';
import { todayIn } from './calendar.ts';
import { offeredPromotions, rentalExtras } from './offers.ts';
import { type BillingPeriod, invoiceDescription, issuedBy, type LeaseForBilling, linesTotal, MAX_PERIODS_AT_ONCE, nextPeriod } from './periods.ts';
import { type FacilityTerms, facilityBilling } from './settings.ts';

// The move-in quote walks the periods a new lease is billed, as billLease does, and stops where
// billLease stops (issuedBy): what it calls due today is what a move-in on `today` issues.

/** The terms a lease would start on, with the plan and promotion it would carry. */
export interface MoveInTerms {
  startDate: string;
  monthlyRate: string;
  depositAmount: string | null;
  protection?: LeaseProtection | null;
  promotion?: LeasePromotion | null;
}

export type MoveInQuoteBody = Pick<MoveInQuote, 'dueToday' | 'totalDueToday' | 'nextInvoice'>;

function quoted(period: BillingPeriod): QuotedInvoice {
  const { kind, periodStart, periodEnd, issueDate, dueDate, lines } = period;
  return { kind, description: invoiceDescription(period), periodStart, periodEnd, issueDate, dueDate, lines, total: linesTotal(lines) };
}

/**
 * What a lease of these terms is billed if it starts on `today` (the facility's date): the
 * invoices issued at once (the move-in invoice, then any rent a backdated lease already owes),
 * their total, and the invoice after them.
 */
export function moveInQuote(terms: MoveInTerms, settings: BillingSettings, today: string): MoveInQuoteBody {
  const { protection = null, promotion = null, ...agreed } = terms;
  let lease: LeaseForBilling = {
    ...agreed,
    protection: protection ? [{ effectiveDate: terms.startDate, protection }] : [],
    promotion,
    billedThrough: null,
    endDate: null,
  };
  const dueToday: QuotedInvoice[] = [];
  let period = nextPeriod(lease, settings);
  while (period && issuedBy(period, today) && dueToday.length < MAX_PERIODS_AT_ONCE) {
    dueToday.push(quoted(period));
    lease = { ...lease, billedThrough: period.periodEnd };
    period = nextPeriod(lease, settings);
  }
  const totalDueToday = fromCents(dueToday.reduce((sum, invoice) => sum + toCents(invoice.total), 0n));
  return { dueToday, totalDueToday, nextInvoice: period ? quoted(period) : null };
}

/** A unit's stream and its facility's zone, billing settings and offers; 404 for a unit that does not exist. */
async function unitForQuote(store: EventStore, unitId: string, now: Date) {
  const { state: unit } = await loadAggregate(store, streams.unit(unitId), unitAggregate);
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  const offers = await facilityBilling(store, unit.fields.facilityId);
  return { unit, offers, settings: offers.settings, today: todayIn(offers.timeZone, now) };
}

type Choices = { protectionPlanId?: string | undefined; promotionId?: string | undefined };

/** The plan and promotion asked for, checked as the move-in checks them, and what else this move-in could be given. */
function quotedExtras(offers: FacilityTerms, choices: Choices, at: PromotionContext) {
  const extras = rentalExtras(offers, { protectionPlanId: choices.protectionPlanId ?? null, promotionId: choices.promotionId ?? null }, at);
  return { extras, offered: { plans: [...offers.protection.plans], promotions: offeredPromotions(offers, at) } };
}

/** The desk's quote for a unit: at the rate given (the unit's unless said), the deposit given (none unless said), the plan and promotion chosen. */
export async function quoteUnitMoveIn(
  store: EventStore,
  unitId: string,
  request: { startDate: string; monthlyRate?: string | undefined; depositAmount?: string | undefined } & Choices,
  now: Date,
): Promise<MoveInQuote> {
  const { unit, offers, settings, today } = await unitForQuote(store, unitId, now);
  const at = { channel: 'desk' as const, facilityId: unit.fields.facilityId, unitSize: unit.fields.size, moveInDate: request.startDate };
  const { extras, offered } = quotedExtras(offers, request, at);
  const terms: MoveInTerms = {
    startDate: request.startDate,
    monthlyRate: request.monthlyRate ?? unit.fields.monthlyRate,
    depositAmount: request.depositAmount ?? null,
    ...extras,
  };
  return {
    unitId,
    startDate: terms.startDate,
    monthlyRate: terms.monthlyRate,
    depositAmount: terms.depositAmount,
    today,
    ...moveInQuote(terms, settings, today),
    ...extras,
    offers: offered,
  };
}

/** An available or held unit as its stream tells it. */
type QuotableUnit = Extract<UnitState, { status: 'current' }>;

/** The online quote of a unit at its rate, no deposit (the site takes none), for a move-in on `startDate`: one rule for the wizard, the finish-online offer and the unit list. */
function onlineQuote(unit: QuotableUnit, offers: FacilityTerms, startDate: string, today: string, choices: Choices): PublicMoveInQuote {
  const at = { channel: 'online' as const, facilityId: unit.fields.facilityId, unitSize: unit.fields.size, moveInDate: startDate };
  const { extras, offered } = quotedExtras(offers, choices, at);
  const terms: MoveInTerms = { startDate, monthlyRate: unit.fields.monthlyRate, depositAmount: null, ...extras };
  return { unitId: unit.unitId, startDate, monthlyRate: terms.monthlyRate, today, ...moveInQuote(terms, offers.settings, today), ...extras, offers: offered };
}

/**
 * The public site's quote: an available unit at its own rate, no deposit (the site takes none),
 * from a move-in day the reservation would accept.
 */
export async function quotePublicMoveIn(store: EventStore, unitId: string, moveInDate: string, now: Date, choices: Choices = {}): Promise<PublicMoveInQuote> {
  requireMoveInNotPast(moveInDate, now, 'moveInDate');
  const { unit, offers, today } = await unitForQuote(store, unitId, now);
  if (unit.fields.status !== 'available') throw new ConflictError(UNIT_NOT_AVAILABLE_MESSAGE);
  return onlineQuote(unit, offers, moveInDate, today, choices);
}

/**
 * For the public unit list: each unit's move-in today with no plan and no promotion, as
 * quotePublicMoveIn quotes it, and the promotions offered online for it today. The units' streams
 * are read in one statement and each facility's settings once; a unit that does not exist or is
 * not available has no summary (the list never shows a figure the wizard would not quote).
 */
export async function publicMoveInSummaries(store: EventStore, unitIds: readonly string[], now: Date): Promise<MoveInSummary[]> {
  const read = await readStreams(
    store,
    unitIds.map((id) => streams.unit(id)),
  );
  const units = unitIds
    .map((id) => aggregateFrom(read.get(streams.unit(id)) ?? [], unitAggregate).state)
    .filter((unit): unit is QuotableUnit => unit.status === 'current' && unit.fields.status === 'available');
  const facilityIds = [...new Set(units.map((unit) => unit.fields.facilityId))];
  const terms = new Map(await Promise.all(facilityIds.map(async (id) => [id, await facilityBilling(store, id)] as const)));
  return units.map((unit) => {
    const offers = terms.get(unit.fields.facilityId)!;
    const today = todayIn(offers.timeZone, now);
    const quote = onlineQuote(unit, offers, today, today, {});
    return { unitId: unit.unitId, today, totalDueToday: quote.totalDueToday, promotions: quote.offers.promotions };
  });
}

/** An online rental starts on the reservation's move-in day, or today when that day has passed. */
function onlineStartDate(moveInDate: string, today: string): string {
  return moveInDate < today ? today : moveInDate;
}

/**
 * The quote of an online reservation's move-in: its unit, held for it, at the unit's rate, no
 * deposit, on its move-in day, with the plan and promotion chosen online. What the renter pays to
 * finish the rental online.
 */
export async function quoteReservedMoveIn(
  store: EventStore,
  reservation: { reservationId: string; unitId: string; moveInDate: string },
  now: Date,
  choices: Choices = {},
): Promise<PublicMoveInQuote> {
  const { unit, offers, today } = await unitForQuote(store, reservation.unitId, now);
  if (unit.fields.status !== 'reserved' || unit.reservationId !== reservation.reservationId) throw new ConflictError(UNIT_NOT_AVAILABLE_MESSAGE);
  return onlineQuote(unit, offers, onlineStartDate(reservation.moveInDate, today), today, choices);
}
