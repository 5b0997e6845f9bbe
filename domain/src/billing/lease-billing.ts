import type { BillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { type RecordedEvent, WrongExpectedRevisionError } from '@storage/eventstore/port';
import type { AccountState } from '../accounts/account.ts';
import { payFromCredit } from '../accounts/pay-from-credit.ts';
import { listInvoiceOnAccount } from '../accounts/receivables.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConflictError } from '../commands/errors.ts';
import { type CommandContext, envelope, handleCommand, type LoadedAggregate, loadAggregate } from '../commands/handle.ts';
import { claimUniqueKey, uniqueKeyStream } from '../commands/unique-keys.ts';
import { decideInvoice } from '../invoices/businessLogic.ts';
import { sendInvoice } from '../invoices/commands.ts';
import { type InvoiceState, invoiceAggregate } from '../invoices/invoice.ts';
import { decideLease } from '../leases/businessLogic.ts';
import { type LeaseState, leaseAggregate } from '../leases/lease.ts';
import { type BillingPeriod, invoiceDescription, issuedBy, type LeaseForBilling, linesTotal, MAX_PERIODS_AT_ONCE, nextPeriod } from './periods.ts';

// Billing one lease: the move-in invoice, then each rent period in order, up to what is due to be
// issued by the facility's today. Exactly once whatever happens: an invoice's id is derived from
// the lease and the first day it covers, so a retry, a second projector or a rebuild generates the
// same stream, which exists already (a no-op); the lease's own stream then records how far it is
// billed (lease_rent_billed, at its expected revision), so two runs never both advance it.

const INVOICE_NUMBER_KEY = 'invoice-number';

export interface LeaseBilling {
  /** Invoices this call issued (generated here, not found from an earlier attempt). */
  issued: number;
  /** Every invoice this call went through (issued here or by an earlier attempt): the day's later steps look at them. */
  invoiceIds: string[];
  position: Position | null;
}

function forBilling(lease: Extract<LeaseState, { status: 'active' | 'ended' }>): LeaseForBilling {
  const { startDate, monthlyRate, depositAmount } = lease.terms;
  const rentChanges = lease.rentChanges.filter((change) => !change.cancelled);
  // A scheduled move-out bills as a move-out on that day would: nothing that starts after it.
  const endDate = lease.status === 'ended' ? lease.endDate : (lease.moveOut?.endDate ?? null);
  const { protection, promotion } = lease;
  return { startDate, monthlyRate, rentChanges, protection, promotion, depositAmount, billedThrough: lease.billedThrough, endDate };
}

/** Records that the lease's rent is invoiced for a period (the engine's step; the demo seed's own invoices too). */
export async function recordRentBilled(ctx: CommandContext, leaseId: string, invoiceId: string, periodStart: string, periodEnd: string) {
  return handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) =>
    decideLease({ type: 'RecordRentBilled', leaseId, invoiceId, periodStart, periodEnd }, state),
  );
}

/** The identity of a lease's invoice for the period starting on `periodStart`: the same on every attempt. */
export function leaseInvoiceId(leaseId: string, periodStart: string): string {
  return derivedId('lease-invoice', leaseId, periodStart);
}

/** INV-202612-1A2B3C4D: the period's month and the start of the invoice's (derived) id. */
export function leaseInvoiceNumber(periodStart: string, invoiceId: string): string {
  return `INV-${periodStart.slice(0, 7).replace('-', '')}-${invoiceId.slice(0, 8).toUpperCase()}`;
}

/** The invoice's number when its usual one (INV-YYYYMM- and 8 hex digits) belongs to another lease's invoice. */
function longInvoiceNumber(periodStart: string, invoiceId: string): string {
  return `INV-${periodStart.slice(0, 7).replace('-', '')}-${invoiceId.replaceAll('-', '').slice(0, 16).toUpperCase()}`;
}

/**
 * The number a new invoice takes: its usual one, or, when that belongs to another lease's invoice
 * of the month (ids that start alike: about one month in twenty at 20,000 leases), the longer
 * one. Null when both are taken (then only an invoice of an earlier attempt can be used).
 */
async function numberFor(ctx: CommandContext, stream: string, usual: string, longer: string, known?: readonly RecordedEvent[]): Promise<string | null> {
  if (await claimUniqueKey(ctx, INVOICE_NUMBER_KEY, usual, stream, known)) return usual;
  if (await claimUniqueKey(ctx, INVOICE_NUMBER_KEY, longer, stream)) return longer;
  return null;
}

/**
 * Generates the period's invoice and sends it on `today` (the facility's date), in one append (the
 * invoice stream is new), or finds it from an earlier attempt and sends it if that attempt stopped
 * short. Returns the last day it covers (an earlier attempt's invoice, made under other settings,
 * has the last word).
 */
async function issue(ctx: CommandContext, leaseId: string, customerId: string, period: BillingPeriod, today: string, hints: LeaseBillingHints) {
  const invoiceId = leaseInvoiceId(leaseId, period.periodStart);
  const stream = streams.invoice(invoiceId);
  let generated = false;
  let position: Position | null = null;
  const usual = leaseInvoiceNumber(period.periodStart, invoiceId);
  const known = hints.numberClaims?.get(uniqueKeyStream(INVOICE_NUMBER_KEY, usual));
  const numbered = await numberFor(ctx, stream, usual, longInvoiceNumber(period.periodStart, invoiceId), known);
  // Not read first: the common case is a new stream, and an earlier attempt's shows as a lost append.
  let invoice: LoadedAggregate<InvoiceState> | null = null;
  let account = hints.account;
  if (numbered !== null) {
    // Listed on the account first: a payment decided between the two appends already sees it.
    account = await listInvoiceOnAccount(ctx, customerId, invoiceId, account);
    const amount = linesTotal(period.lines);
    const fields = {
      invoiceNumber: numbered,
      customerId,
      leaseId,
      amount,
      dueDate: period.dueDate,
      status: 'draft' as const,
      description: invoiceDescription(period),
      lines: period.lines,
    };
    const none = invoiceAggregate.initial;
    const generate = decideInvoice({ type: 'GenerateInvoice', invoiceId, fields }, none);
    const send = decideInvoice({ type: 'SendInvoice', invoiceId, sentOn: today }, generate.reduce(invoiceAggregate.evolve, none));
    const generatedEvent = envelope(ctx, generate[0]!);
    const sentEvents = send.map((e) => envelope(ctx, e, ctx.causedByStreamHead ? generatedEvent.id : null));
    try {
      // Sent as it is generated: one append, the sending caused by the generating.
      const result = await ctx.store.append(stream, [generatedEvent, ...sentEvents], { expectedRevision: 'no_stream' });
      generated = true;
      position = result.position;
      invoice = { state: [...generate, ...send].reduce(invoiceAggregate.evolve, none), revision: result.nextRevision, lastEventId: sentEvents.at(-1)!.id };
    } catch (error) {
      // Generated by an earlier attempt, or a run beside this one a moment ago: carry on with it.
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  invoice ??= await loadAggregate(ctx.store, stream, invoiceAggregate);
  if (invoice.state.status === 'none' && numbered === null) throw new ConflictError(`Invoice number ${usual} belongs to another invoice`, 'invoiceNumber');
  const { state } = invoice;
  if (state.status !== 'current') throw new Error(`Invoice ${invoiceId} of lease ${leaseId} could not be generated`);
  if (state.fields.status === 'draft') position = (await sendInvoice(ctx, invoiceId, today)).position ?? position;
  // Credit on the renter's account (an overpayment, a staff credit) pays the new invoice first.
  position = (await payFromCredit(ctx, invoiceId, generated ? state : undefined, account)) ?? position;
  const covered = state.fields.lines.flatMap((line) => (line.periodEnd ? [line.periodEnd] : []));
  const periodEnd = covered.length > 0 ? covered.sort().at(-1)! : period.periodEnd;
  return { invoiceId, generated, position, periodEnd };
}

/**
 * What the billing run read of many leases at once (readStreams), a moment before it bills each:
 * the lease's stream, its renter's account, and the claims of the number its next invoice takes.
 * Decided on for the lease's first period; a stale one costs a lost race, which reads afresh.
 */
export interface LeaseBillingHints {
  lease?: LoadedAggregate<LeaseState>;
  account?: LoadedAggregate<AccountState>;
  numberClaims?: ReadonlyMap<string, readonly RecordedEvent[]>;
}

/** The next invoice the lease is billed (null: none), whenever it is to be issued. */
export function nextLeasePeriod(lease: LeaseState, settings: BillingSettings): BillingPeriod | null {
  if (lease.status !== 'active' && lease.status !== 'ended') return null;
  return nextPeriod(forBilling(lease), settings);
}

/** The stream of the claims on the usual number of the lease's invoice for `period`. */
export function invoiceNumberKeyStream(leaseId: string, period: BillingPeriod): string {
  return uniqueKeyStream(INVOICE_NUMBER_KEY, leaseInvoiceNumber(period.periodStart, leaseInvoiceId(leaseId, period.periodStart)));
}

/**
 * Issues every invoice of the lease that is due to be issued on or before `today` (the facility's
 * date), in order: the move-in invoice, then each rent period. A lease that ended is billed up to
 * its end; what it still owes stays owed. The lease's stream is read once (or given in `hints`):
 * each step decides on the state the last one left (a lost race reads it afresh).
 */
export async function billLease(
  ctx: CommandContext,
  leaseId: string,
  today: string,
  settings: BillingSettings,
  hints: LeaseBillingHints = {},
): Promise<LeaseBilling> {
  const result: LeaseBilling = { issued: 0, invoiceIds: [], position: null };
  const stream = streams.lease(leaseId);
  let loaded: LoadedAggregate<LeaseState> = hints.lease ?? (await loadAggregate(ctx.store, stream, leaseAggregate));
  for (let n = 0; n < MAX_PERIODS_AT_ONCE; n++) {
    const lease = loaded.state;
    const period = nextLeasePeriod(lease, settings);
    if (!period || lease.status === 'none' || lease.status === 'abandoned' || !issuedBy(period, today)) return result;
    const issued = await issue(ctx, leaseId, lease.terms.customerId, period, today, n === 0 ? hints : {});
    if (issued.generated) result.issued++;
    result.invoiceIds.push(issued.invoiceId);
    const command = { type: 'RecordRentBilled' as const, leaseId, invoiceId: issued.invoiceId, periodStart: period.periodStart, periodEnd: issued.periodEnd };
    const billed = await handleCommand(ctx, stream, leaseAggregate, (state) => decideLease(command, state), loaded);
    loaded = billed;
    result.position = billed.position ?? issued.position ?? result.position;
  }
  return result;
}
