import { InvoiceStatus } from '@storage/contracts/enums';
import { fromCents, toCents } from '@storage/contracts/money';
import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

type CustomerColumns = Pick<RowOf<'invoices'>, 'facility_id' | 'search_text' | 'customer_last_name' | 'customer_first_name'>;

/**
 * What the invoices list searches, scopes and sorts by, copied from the customer (its name as
 * the customer sort orders it: last name, then first name). The customers projection runs
 * first, so its row is current.
 */
async function customerColumns(rows: ReadModelSession, invoice: Pick<RowOf<'invoices'>, 'customer_id' | 'invoice_number'> & CustomerColumns) {
  const c = await rows.get('customers', invoice.customer_id);
  if (!c) {
    const { facility_id, search_text, customer_last_name, customer_first_name } = invoice;
    return { facility_id, search_text, customer_last_name, customer_first_name } satisfies CustomerColumns;
  }
  return {
    facility_id: c.facility_id,
    search_text: [invoice.invoice_number, c.first_name, c.last_name, `${c.first_name} ${c.last_name}`, c.email].join(' ').toLowerCase(),
    customer_last_name: c.last_name,
    customer_first_name: c.first_name,
  } satisfies CustomerColumns;
}

/**
 * An invoice's status and its place in the contracts' list of statuses (1 for the first), which
 * the list sorts by "status" in (an index on the row serves it). Every change of status goes
 * through here so the two never disagree.
 */
function statusColumns(status: string): Pick<RowOf<'invoices'>, 'status' | 'status_rank'> {
  return { status, status_rank: (InvoiceStatus.options as readonly string[]).indexOf(status) + 1 };
}

export const invoicesProjection = defineProjection({
  name: 'invoices',
  tables: ['invoices', 'payments'],
  reads: ['customers'],
  canHandle: [
    'customer_updated',
    'invoice_cancelled',
    'invoice_generated',
    'invoice_line_added',
    'invoice_overdue',
    'invoice_sent',
    'invoice_written_off',
    'payment_received',
    'payment_refund_issued',
    'payment_refund_requested',
    'payment_refunded',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    const setStatus = (invoiceId: string, status: string) => rows.update('invoices', invoiceId, { ...statusColumns(status), updated_at: at });
    /** A refund's own row beside the payment it gives back: pending while a card refund waits for the provider. */
    const insertRefundRow = async (
      d: { refundId: string; customerId: string; invoiceId: string; paymentId: string; amount: string; method: RowOf<'payments'>['method'] },
      status: 'pending' | 'refunded',
    ) => {
      const payment = await rows.get('payments', d.paymentId);
      rows.insert('payments', {
        id: d.refundId,
        customer_id: d.customerId,
        invoice_id: d.invoiceId,
        amount: d.amount,
        method: d.method,
        status,
        stripe_payment_intent_id: payment?.stripe_payment_intent_id ?? null,
        amount_refunded: '0.00',
        refund_of: d.paymentId,
        created_at: at,
      });
    };
    switch (event.type) {
      case 'invoice_generated': {
        const d = event.data;
        const invoice = {
          id: d.invoiceId,
          invoice_number: d.invoiceNumber,
          customer_id: d.customerId,
          lease_id: d.leaseId,
          amount: d.amount,
          amount_paid: '0.00',
          due_date: d.dueDate,
          paid_date: null,
          ...statusColumns(d.status),
          description: d.description,
          lines: d.lines,
          facility_id: null,
          search_text: d.invoiceNumber.toLowerCase(),
          customer_last_name: '',
          customer_first_name: '',
          created_at: at,
          updated_at: at,
        };
        rows.insert('invoices', { ...invoice, ...(await customerColumns(rows, invoice)) });
        return;
      }
      case 'customer_updated': {
        const { changes } = event.data;
        if (!['firstName', 'lastName', 'email', 'facilityId'].some((field) => field in changes)) return;
        for (const invoice of await rows.find('invoices', 'customer_id', event.data.customerId)) {
          await rows.update('invoices', invoice.id, await customerColumns(rows, invoice));
        }
        return;
      }
      case 'invoice_line_added': {
        const invoice = await rows.get('invoices', event.data.invoiceId);
        if (!invoice) return;
        await rows.update('invoices', invoice.id, { amount: event.data.amount, lines: [...(invoice.lines as unknown[]), event.data.line], updated_at: at });
        return;
      }
      case 'invoice_sent':
        await setStatus(event.data.invoiceId, 'sent');
        return;
      case 'invoice_overdue':
        await setStatus(event.data.invoiceId, 'overdue');
        return;
      case 'invoice_cancelled':
        await setStatus(event.data.invoiceId, 'cancelled');
        return;
      case 'invoice_written_off':
        await setStatus(event.data.invoiceId, 'written_off');
        return;
      case 'payment_received': {
        const d = event.data;
        const invoice = await rows.get('invoices', d.invoiceId);
        if (invoice) {
          // The write side decided what the payment left: copied. Payments recorded before it was
          // carried are worked out as it then was (paid in full when nothing is left owing).
          const paid = d.openBalance === null ? toCents(invoice.amount_paid) + toCents(d.amount) : toCents(invoice.amount) - toCents(d.openBalance);
          const status = d.invoiceStatus ?? (paid >= toCents(invoice.amount) ? 'paid' : invoice.status);
          await rows.update('invoices', d.invoiceId, {
            amount_paid: fromCents(paid),
            ...(status !== invoice.status && statusColumns(status)),
            // The payment that paid it in full dates it (one created paid is labelled so before its payment comes).
            ...(status === 'paid' && (invoice.status !== 'paid' || invoice.paid_date === null) && { paid_date: d.paidDate }),
            updated_at: at,
          });
        }
        rows.insert('payments', {
          id: d.paymentId,
          customer_id: d.customerId,
          invoice_id: d.invoiceId,
          amount: d.amount,
          method: d.method,
          status: 'completed',
          stripe_payment_intent_id: d.stripePaymentIntentId,
          amount_refunded: '0.00',
          refund_of: null,
          created_at: at,
        });
        return;
      }
      case 'payment_refund_requested': {
        // A card refund staff decided, not yet made by the provider: shown as pending beside its
        // payment; the invoice's balance and the payment's refunded amount change on issue.
        await insertRefundRow(event.data, 'pending');
        return;
      }
      case 'payment_refund_issued': {
        // Staff gave back (part of) a payment: the money is owed again, and a paid invoice reopens.
        const d = event.data;
        const invoice = await rows.get('invoices', d.invoiceId);
        if (invoice) {
          const reopened = invoice.status === 'paid' && d.invoiceStatus !== 'paid';
          await rows.update('invoices', d.invoiceId, {
            amount_paid: fromCents(toCents(invoice.amount_paid) - toCents(d.amount)),
            ...statusColumns(d.invoiceStatus),
            ...(reopened && { paid_date: null }),
            updated_at: at,
          });
        }
        const payment = await rows.get('payments', d.paymentId);
        if (payment) await rows.update('payments', d.paymentId, { amount_refunded: fromCents(toCents(payment.amount_refunded) + toCents(d.amount)) });
        // A card refund was requested first: its pending row is now refunded (dated as requested).
        if (await rows.get('payments', d.refundId)) {
          await rows.update('payments', d.refundId, { status: 'refunded' });
          return;
        }
        await insertRefundRow(d, 'refunded');
        return;
      }
      case 'payment_refunded': {
        // A charge the invoice could not take, given back: staff see it beside the payment that counted.
        const d = event.data;
        rows.insert('payments', {
          id: d.paymentId,
          customer_id: d.customerId,
          invoice_id: d.invoiceId,
          amount: d.amount,
          method: 'card',
          status: 'refunded',
          stripe_payment_intent_id: d.stripePaymentIntentId,
          amount_refunded: '0.00',
          refund_of: null,
          created_at: at,
        });
        return;
      }
    }
  },
});
