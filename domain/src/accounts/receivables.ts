import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { aggregateFrom, type CommandContext, handleCommand, type LoadedAggregate, loadAggregate } from '../commands/handle.ts';
import { type InvoiceState, invoiceAggregate, openBalance } from '../invoices/invoice.ts';
import { type AccountState, accountAggregate } from './account.ts';

// The receivables rules, decided on the write side's streams: a renter's invoices are those listed
// on their account (each listed before its own stream is written), read from their own streams.
// What is open, the order a payment pays them in, and what is past due are decided here and
// nowhere else; the read model's lists nominate and show, they never decide.

export type CurrentInvoice = Extract<InvoiceState, { status: 'current' }>;

/** Open: sent or overdue (a draft is not owed yet; paid, cancelled and written off are closed). */
export function isOpen(invoice: CurrentInvoice): boolean {
  return invoice.fields.status === 'sent' || invoice.fields.status === 'overdue';
}

const current = (invoice: InvoiceState): invoice is CurrentInvoice => invoice.status === 'current';

/** The order a payment pays open invoices in: oldest due first, then by number, then by id. */
export function oldestDueFirst(a: CurrentInvoice, b: CurrentInvoice): number {
  if (a.fields.dueDate !== b.fields.dueDate) return a.fields.dueDate < b.fields.dueDate ? -1 : 1;
  if (a.fields.invoiceNumber !== b.fields.invoiceNumber) return a.fields.invoiceNumber < b.fields.invoiceNumber ? -1 : 1;
  return a.invoiceId < b.invoiceId ? -1 : a.invoiceId > b.invoiceId ? 1 : 0;
}

/** The open invoices among `invoices`, in the order a payment pays them. */
export function openInvoices(invoices: readonly InvoiceState[]): CurrentInvoice[] {
  return invoices.filter(current).filter(isOpen).sort(oldestDueFirst);
}

/** The invoices past due on `today`: the open ones due before it, in the order a payment pays them. */
export function pastDueInvoices(invoices: readonly InvoiceState[], today: string): CurrentInvoice[] {
  return openInvoices(invoices).filter((invoice) => invoice.fields.dueDate < today);
}

/** What is past due on `today`: the open balance of the open invoices due before it. */
export function pastDue(invoices: readonly InvoiceState[], today: string): string {
  return renterOpenBalance(pastDueInvoices(invoices, today));
}

/**
 * The day an invoice is late from, which the late fee's grace days and the delinquency schedule's
 * days count from: its due date, or the later day the renter came to owe it (sent after its due
 * date, as an invoice for a past period is, or reopened by a refund after it was paid). A renter
 * is never counted late for days they did not owe it. Without that day in its events (sent before
 * it was kept, or created sent), its due date.
 */
export function lateFrom(invoice: CurrentInvoice): string {
  const { owedSince } = invoice;
  return owedSince !== null && owedSince > invoice.fields.dueDate ? owedSince : invoice.fields.dueDate;
}

/** Whether any of the invoices is overdue (the renter's standing follows it). */
export function anyOverdue(invoices: readonly InvoiceState[]): boolean {
  return invoices.some((invoice) => invoice.status === 'current' && invoice.fields.status === 'overdue');
}

/** The renter's open balance: the sum of what the open invoices among `invoices` still owe. */
export function renterOpenBalance(invoices: readonly InvoiceState[]): string {
  return fromCents(openInvoices(invoices).reduce((sum, invoice) => sum + toCents(openBalance(invoice)), 0n));
}

/**
 * The renter's invoices as their own streams have them, read in one go: every invoice listed on
 * the account that exists and is the renter's (one listed but never written, after a crash between
 * the two appends, is passed over).
 */
export async function renterInvoices(from: { store: EventStore }, customerId: string, account?: AccountState): Promise<CurrentInvoice[]> {
  const listed = account ?? (await loadAggregate(from.store, streams.account(customerId), accountAggregate)).state;
  if (listed.invoiceIds.size === 0) return [];
  const read = await readStreams(
    from.store,
    [...listed.invoiceIds].map((id) => streams.invoice(id)),
  );
  return [...read.values()]
    .map((recorded) => aggregateFrom(recorded, invoiceAggregate).state)
    .filter(current)
    .filter((invoice) => invoice.fields.customerId === customerId);
}

/**
 * Lists an invoice on the renter's account, once, before the invoice's stream is written: from
 * then on every money decision on the account sees it. Returns the account as it now stands.
 */
export async function listInvoiceOnAccount(
  ctx: CommandContext,
  customerId: string,
  invoiceId: string,
  known?: LoadedAggregate<AccountState>,
): Promise<LoadedAggregate<AccountState>> {
  if (known?.state.invoiceIds.has(invoiceId)) return known;
  const listed = await handleCommand(
    ctx,
    streams.account(customerId),
    accountAggregate,
    (state) => (state.invoiceIds.has(invoiceId) ? [] : [{ type: 'account_invoice_listed', data: { customerId, invoiceId } }]),
    known,
  );
  return { state: listed.state, revision: listed.revision, lastEventId: listed.lastEventId };
}
