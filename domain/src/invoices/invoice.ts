import type { PaymentMethod } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';

export type InvoiceFields = Omit<EventData<'invoice_generated'>, 'invoiceId'>;

export interface InvoicePayment {
  paymentId: string;
  stripePaymentIntentId: string | null;
  amount: string;
  method: PaymentMethod;
  /** Given back by staff so far (payment_refund_issued). */
  refunded: string;
  /** The refunds of it, by refund id. */
  refundIds: readonly string[];
  /** Card refunds requested (payment_refund_requested) and not yet issued: held against what is left to give back. */
  pendingRefunds: readonly PendingRefund[];
}

export type PendingRefund = Pick<EventData<'payment_refund_requested'>, 'refundId' | 'amount' | 'reason' | 'refundDate'>;

export type InvoiceState =
  | { status: 'none' }
  | {
      status: 'current';
      invoiceId: string;
      fields: InvoiceFields;
      /** Every payment on it, in order (a partial payment leaves the invoice open). */
      payments: readonly InvoicePayment[];
      /** Provider intents whose charge was refunded because the invoice could not take it. */
      refundedIntentIds: readonly string[];
      /**
       * The facility's date the renter last came to owe it: the day it was sent, or the day a
       * refund reopened it after it was paid. Null when its events do not say (sent before the
       * day was kept, or created sent).
       */
      owedSince: string | null;
    };

export const initialInvoiceState: InvoiceState = { status: 'none' };

/** What a payment still counts for: its amount less what staff gave back of it. */
export function unrefunded(payment: InvoicePayment): string {
  return fromCents(toCents(payment.amount) - toCents(payment.refunded));
}

/** What staff may still give back of a payment: what it counts for less the refunds requested and not yet issued. */
export function leftToRefund(payment: InvoicePayment): string {
  const pending = payment.pendingRefunds.reduce((sum, r) => sum + toCents(r.amount), 0n);
  return fromCents(toCents(unrefunded(payment)) - pending);
}

/** What is still owed on the invoice: its amount less its payments, net of their refunds (never below 0). */
export function openBalance(state: Extract<InvoiceState, { status: 'current' }>): string {
  const paid = state.payments.reduce((sum, p) => sum + toCents(unrefunded(p)), 0n);
  const open = toCents(state.fields.amount) - paid;
  return fromCents(open > 0n ? open : 0n);
}

export function evolveInvoice(state: InvoiceState, event: DomainEvent): InvoiceState {
  if (event.type === 'invoice_generated') {
    const { invoiceId, ...fields } = event.data;
    return { status: 'current', invoiceId, fields, payments: [], refundedIntentIds: [], owedSince: null };
  }
  if (state.status === 'none') return state;
  const withStatus = (status: InvoiceFields['status']): InvoiceState => ({ ...state, fields: { ...state.fields, status } });
  switch (event.type) {
    case 'invoice_sent':
      return { ...state, fields: { ...state.fields, status: 'sent' }, owedSince: event.data.sentOn };
    case 'invoice_overdue':
      return withStatus('overdue');
    case 'invoice_cancelled':
      return withStatus('cancelled');
    case 'invoice_written_off':
      return withStatus('written_off');
    case 'invoice_line_added':
      return { ...state, fields: { ...state.fields, amount: event.data.amount, lines: [...state.fields.lines, event.data.line] } };
    case 'payment_received': {
      const { paymentId, stripePaymentIntentId, amount, method } = event.data;
      const payment: InvoicePayment = { paymentId, stripePaymentIntentId, amount, method, refunded: '0.00', refundIds: [], pendingRefunds: [] };
      const paid: InvoiceState = { ...state, payments: [...state.payments, payment] };
      // Paid in full when nothing is left owing; a partial payment keeps its status (sent, overdue).
      return toCents(openBalance(paid)) === 0n ? { ...paid, fields: { ...paid.fields, status: 'paid' } } : paid;
    }
    case 'payment_refunded':
      return { ...state, refundedIntentIds: [...state.refundedIntentIds, event.data.stripePaymentIntentId] };
    case 'payment_refund_requested': {
      const { refundId, amount, reason, refundDate } = event.data;
      const payments = state.payments.map((p) =>
        p.paymentId === event.data.paymentId ? { ...p, pendingRefunds: [...p.pendingRefunds, { refundId, amount, reason, refundDate }] } : p,
      );
      return { ...state, payments };
    }
    case 'payment_refund_issued': {
      const d = event.data;
      const payments = state.payments.map((p) =>
        p.paymentId === d.paymentId
          ? {
              ...p,
              refunded: fromCents(toCents(p.refunded) + toCents(d.amount)),
              refundIds: [...p.refundIds, d.refundId],
              pendingRefunds: p.pendingRefunds.filter((r) => r.refundId !== d.refundId),
            }
          : p,
      );
      // A paid invoice the refund reopens is owed again from the refund's day.
      const reopened = state.fields.status === 'paid' && (d.invoiceStatus === 'sent' || d.invoiceStatus === 'overdue');
      return { ...state, payments, fields: { ...state.fields, status: d.invoiceStatus }, owedSince: reopened ? d.refundDate : state.owedSince };
    }
    default:
      return state;
  }
}

export const invoiceAggregate = { initial: initialInvoiceState, evolve: evolveInvoice };
