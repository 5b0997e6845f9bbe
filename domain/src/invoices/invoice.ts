import type { DomainEvent, EventData } from '@storage/contracts/events';

export type InvoiceFields = Omit<EventData<'invoice_generated'>, 'invoiceId'>;

export interface InvoicePayment {
  paymentId: string;
  stripePaymentIntentId: string | null;
}

export type InvoiceState =
  | { status: 'none' }
  | {
      status: 'current';
      invoiceId: string;
      fields: InvoiceFields;
      payment: InvoicePayment | null;
      /** Provider intents whose charge was refunded because the invoice could not take it. */
      refundedIntentIds: readonly string[];
    };

export const initialInvoiceState: InvoiceState = { status: 'none' };

export function evolveInvoice(state: InvoiceState, event: DomainEvent): InvoiceState {
  if (event.type === 'invoice_generated') {
    const { invoiceId, ...fields } = event.data;
    return { status: 'current', invoiceId, fields, payment: null, refundedIntentIds: [] };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'invoice_line_added':
      return { ...state, fields: { ...state.fields, amount: event.data.amount, lines: [...state.fields.lines, event.data.line] } };
    case 'invoice_sent':
      return { ...state, fields: { ...state.fields, status: 'sent' } };
    case 'invoice_overdue':
      return { ...state, fields: { ...state.fields, status: 'overdue' } };
    case 'invoice_cancelled':
      return { ...state, fields: { ...state.fields, status: 'cancelled' } };
    case 'payment_received': {
      const { paymentId, stripePaymentIntentId } = event.data;
      return { ...state, fields: { ...state.fields, status: 'paid' }, payment: { paymentId, stripePaymentIntentId } };
    }
    case 'payment_refunded':
      return { ...state, refundedIntentIds: [...state.refundedIntentIds, event.data.stripePaymentIntentId] };
    default:
      return state;
  }
}

export const invoiceAggregate = { initial: initialInvoiceState, evolve: evolveInvoice };
