import { fromCents, toCents } from '@storage/contracts/money';
import type { Projection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

/**
 * What the invoices list searches and scopes by, copied from the customer. The customers
 * projection runs first, so its row is current.
 */
async function customerColumns(rows: ReadModelSession, invoice: Pick<RowOf<'invoices'>, 'customer_id' | 'invoice_number' | 'facility_id' | 'search_text'>) {
  const c = await rows.get('customers', invoice.customer_id);
  if (!c) return { facility_id: invoice.facility_id, search_text: invoice.search_text };
  return {
    facility_id: c.facility_id,
    search_text: [invoice.invoice_number, c.first_name, c.last_name, `${c.first_name} ${c.last_name}`, c.email].join(' ').toLowerCase(),
  };
}

export const invoicesProjection: Projection = {
  name: 'invoices',
  tables: ['invoices', 'payments'],
  reads: ['customers'],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    const setStatus = (invoiceId: string, status: string) => rows.update('invoices', invoiceId, { status, updated_at: at });
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
          status: d.status,
          description: d.description,
          lines: d.lines,
          facility_id: null,
          search_text: d.invoiceNumber.toLowerCase(),
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
          // Paid in full when nothing is left owing; a partial payment keeps the invoice open.
          const paid = toCents(invoice.amount_paid) + toCents(d.amount);
          const full = paid >= toCents(invoice.amount);
          await rows.update('invoices', d.invoiceId, {
            amount_paid: fromCents(paid),
            ...(full && { status: 'paid', paid_date: d.paidDate }),
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
          created_at: at,
        });
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
          created_at: at,
        });
        return;
      }
    }
  },
};
