import type { DomainEvent, EventData } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';

export type InvoiceFields = Omit<EventData<'invoice_generated'>, 'invoiceId'>;

export interface InvoicePayment {
  paymentId: string;
  stripePaymentIntentId: string | null;
  amount: string;
}

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
    };

export const initialInvoiceState: InvoiceState = { status: 'none' };

/** What is still owed on the invoice: its amount less its payments (never below 0). */
export function openBalance(state: Extract<InvoiceState, { status: 'current' }>): string {
  const paid = state.payments.reduce((sum, p) => sum + toCents(p.amount), 0n);
  const open = toCents(state.fields.amount) - paid;
  return fromCents(open > 0n ? open : 0n);
}

export function evolveInvoice(state: InvoiceState, event: DomainEvent): InvoiceState {
  if (event.type === 'invoice_generated') {
    const { invoiceId, ...fields } = event.data;
    return { status: 'current', invoiceId, fields, payments: [], refundedIntentIds: [] };
  }
  if (state.status === 'none') return state;
  const withStatus = (status: InvoiceFields['status']): InvoiceState => ({ ...state, fields: { ...state.fields, status } });
  switch (event.type) {
    case 'invoice_sent':
      return withStatus('sent');
    case 'invoice_overdue':
      return withStatus('overdue');
    case 'invoice_cancelled':
      return withStatus('cancelled');
    case 'invoice_written_off':
      return withStatus('written_off');
    case 'invoice_line_added':
      return { ...state, fields: { ...state.fields, amount: event.data.amount, lines: [...state.fields.lines, event.data.line] } };
    case 'payment_received': {
      const { paymentId, stripePaymentIntentId, amount } = event.data;
      const paid: InvoiceState = { ...state, payments: [...state.payments, { paymentId, stripePaymentIntentId, amount }] };
      // Paid in full when nothing is left owing; a partial payment keeps its status (sent, overdue).
      return toCents(openBalance(paid)) === 0n ? { ...paid, fields: { ...paid.fields, status: 'paid' } } : paid;
    }
    case 'payment_refunded':
      return { ...state, refundedIntentIds: [...state.refundedIntentIds, event.data.stripePaymentIntentId] };
    default:
      return state;
  }
}

export const invoiceAggregate = { initial: initialInvoiceState, evolve: evolveInvoice };
