import { streams } from '@storage/contracts/events';
import { formatDollars, fromCents, toCents } from '@storage/contracts/money';
import type { EventStore } from '@storage/eventstore/port';
import type { PaymentProvider } from '@storage/platform/payments/provider';
import type { DatabasePool } from 'slonik';
import { anyOverdue, openInvoices, renterInvoices } from '../accounts/receivables.ts';
import { customerToday } from '../billing/settings.ts';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { openBalance } from '../invoices/invoice.ts';
import { type IntentForInvoice, intentForInvoice } from './intents.ts';

// A renter pays any amount from the minimum due up to their whole balance from the portal; the
// server decides what it covers when the charge succeeds (recordPortalPayment, as a desk payment).

/** What a renter may pay toward their balance. */
export interface PaymentRange {
  /** The open balance of every open invoice: the most one payment takes. */
  balance: string;
  /**
   * The open balance of the invoices due on or before today in their facility's zone; 0.01 when
   * none is due yet (a renter may pay ahead), and 0.00 only when nothing at all is owed.
   */
  minimumDue: string;
}

const MINIMUM_PAYMENT_CENTS = 1n;

/** The range over the open invoices (their due dates and open balances) on `today` (YYYY-MM-DD). */
export function paymentRange(open: readonly { dueDate: string; openBalance: string }[], today: string): PaymentRange {
  let balance = 0n;
  let due = 0n;
  for (const invoice of open) {
    const cents = toCents(invoice.openBalance);
    balance += cents;
    // ISO dates compare correctly as text.
    if (invoice.dueDate <= today) due += cents;
  }
  if (balance <= 0n) return { balance: '0.00', minimumDue: '0.00' };
  return { balance: fromCents(balance), minimumDue: fromCents(due > MINIMUM_PAYMENT_CENTS ? due : MINIMUM_PAYMENT_CENTS) };
}

/** Why `amount` cannot be paid toward a balance of `range`, naming the field; null when it can. */
export function amountRefusal(amount: string, range: PaymentRange): string | null {
  if (toCents(range.balance) <= 0n) return 'amount: nothing is owed on this account';
  const cents = toCents(amount);
  if (cents < toCents(range.minimumDue) || cents > toCents(range.balance)) {
    return `amount: must be from ${formatDollars(range.minimumDue)} (the minimum due) to ${formatDollars(range.balance)} (the whole balance)`;
  }
  return null;
}

/** The renter's range today in their facility's zone, over the open invoices their account lists (decided on the streams). */
export async function accountPaymentRange(store: EventStore, customerId: string, now: Date): Promise<PaymentRange> {
  return (await accountStanding(store, customerId, now)).range;
}

/** The range and whether any invoice is overdue, from one read of the renter's invoice streams. */
export async function accountStanding(store: EventStore, customerId: string, now: Date): Promise<{ range: PaymentRange; overdue: boolean }> {
  const [invoices, today] = await Promise.all([renterInvoices({ store }, customerId), customerToday(store, customerId, now)]);
  const range = paymentRange(
    openInvoices(invoices).map((invoice) => ({ dueDate: invoice.fields.dueDate, openBalance: openBalance(invoice) })),
    today,
  );
  return { range, overdue: anyOverdue(invoices) };
}

/**
 * The intent of a payment of `amount` toward the renter's whole balance, refused (400 naming
 * `amount`) outside the range; one live intent per account, reused or replaced as an invoice's is.
 */
export async function startAccountPayment(
  deps: { pool: DatabasePool; store: EventStore; provider: PaymentProvider },
  customerId: string,
  amount: string,
  now: Date,
): Promise<IntentForInvoice> {
  const { state: customer } = await loadAggregate(deps.store, streams.customer(customerId), customerAggregate);
  if (customer.status === 'none') throw new NotFoundError('Customer not found');
  const refusal = amountRefusal(amount, await accountPaymentRange(deps.store, customerId, now));
  if (refusal) throw new DomainRuleError(refusal, 'amount');
  return intentForInvoice(deps.pool, deps.provider, { amount, invoiceId: null, customerId, customerEmail: customer.fields.email });
}
