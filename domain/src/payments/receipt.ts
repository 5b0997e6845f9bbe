import type { EventData } from '@storage/contracts/events';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import type { PaymentApplied } from '@storage/contracts/payments';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { accountAggregate, accountBalance } from '../accounts/account.ts';
import { renterInvoices, renterOpenBalance } from '../accounts/receivables.ts';
import { aggregateFrom, toDomainEvent } from '../commands/handle.ts';

// A renter's card payment as their own streams tell it: what the card paid on which invoice
// (each payment_received names the intent, also each part of a payment toward the whole balance),
// what became credit, and the balance it left. Read from one renter's streams only, so another
// renter's payment is simply not found.

export interface CardPaymentReceipt {
  paymentIntentId: string;
  amount: string;
  /** The business day of its first payment (the day its plan was recorded when no invoice took any). */
  paidDate: string;
  applied: PaymentApplied[];
  credited: string;
  /** The renter's open balance now, and their credit. */
  balance: string;
  credit: string;
  /** This payment's own events: what a process names as the cause when the payment moved it. */
  eventIds: ReadonlySet<string>;
}

type Plan = EventData<'portal_payment_received'>;

/**
 * The card payment of intent `paymentIntentId` on the books of renter `customerId`; null when
 * their streams hold no such payment (unknown, another renter's, not recorded yet, or refunded
 * because its invoice could not take it).
 */
export async function cardPaymentReceipt(store: EventStore, customerId: string, paymentIntentId: string): Promise<CardPaymentReceipt | null> {
  const accountEvents = await store.readStream(streams.account(customerId));
  const account = aggregateFrom(accountEvents, accountAggregate).state;
  const invoices = await renterInvoices({ store }, customerId, account);
  const paidInvoices = invoices.filter((invoice) => invoice.payments.some((p) => p.stripePaymentIntentId === paymentIntentId));

  const eventIds = new Set<string>();
  let plan: Plan | null = null;
  let planDay: string | null = null;
  let creditedLater = 0n;
  for (const recorded of accountEvents) {
    const event = toDomainEvent(recorded);
    if (event.type === 'portal_payment_received' && event.data.stripePaymentIntentId === paymentIntentId) {
      plan = event.data;
      planDay = recorded.metadata.occurredAt.slice(0, 10);
      eventIds.add(recorded.id);
    } else if (event.type === 'account_credited' && plan && event.data.receiptId === plan.receiptId) {
      // A part of the plan whose invoice no longer needed it.
      creditedLater += toCents(event.data.amount);
      eventIds.add(recorded.id);
    }
  }
  if (!plan && paidInvoices.length === 0) return null;

  const payments = new Map<string, { amount: string; paidDate: string }>();
  const read = await readStreams(
    store,
    paidInvoices.map((invoice) => streams.invoice(invoice.invoiceId)),
  );
  for (const recorded of [...read.values()].flat()) {
    const event = toDomainEvent(recorded);
    if (event.type !== 'payment_received' || event.data.stripePaymentIntentId !== paymentIntentId) continue;
    payments.set(event.data.invoiceId, { amount: event.data.amount, paidDate: event.data.paidDate });
    eventIds.add(recorded.id);
  }
  const numbers = new Map(invoices.map((invoice) => [invoice.invoiceId, invoice.fields.invoiceNumber]));
  // In the order the plan paid them (oldest first); an invoice's own payment is its one line.
  const order = plan ? plan.allocations.map((a) => a.invoiceId) : [...payments.keys()];
  const applied = order.flatMap((invoiceId) => {
    const paid = payments.get(invoiceId);
    return paid ? [{ invoiceId, invoiceNumber: numbers.get(invoiceId) ?? '', amount: paid.amount }] : [];
  });
  const paidTotal = applied.reduce((sum, line) => sum + toCents(line.amount), 0n);
  return {
    paymentIntentId,
    amount: plan ? plan.amount : fromCents(paidTotal),
    paidDate: [...payments.values()][0]?.paidDate ?? planDay ?? '',
    applied,
    credited: fromCents((plan ? toCents(plan.credit) : 0n) + creditedLater),
    balance: renterOpenBalance(invoices),
    credit: accountBalance(account),
    eventIds,
  };
}
