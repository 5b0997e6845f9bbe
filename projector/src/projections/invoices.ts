import { sql, type DatabaseTransactionConnection, type FragmentSqlToken } from 'slonik';
import type { Projection } from '../projection.ts';

/**
 * Copies what the invoices list searches and scopes by from the customer onto the invoices that
 * `which` selects (alias `i`). The customers projection runs first, so its row is current.
 */
function refreshCustomerColumns(tx: DatabaseTransactionConnection, which: FragmentSqlToken) {
  return tx.query(sql.unsafe`
    UPDATE invoices i SET
      facility_id = c.facility_id,
      search_text = lower(concat_ws(' ', i.invoice_number, c.first_name, c.last_name, c.first_name || ' ' || c.last_name, c.email))
    FROM customers c
    WHERE c.id = i.customer_id AND ${which}`);
}

export const invoicesProjection: Projection = {
  name: 'invoices',
  tables: ['invoices', 'payments'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    const setStatus = (invoiceId: string, status: string) =>
      tx.query(sql.unsafe`UPDATE invoices SET status = ${status}, updated_at = ${at} WHERE id = ${invoiceId}`);
    switch (event.type) {
      case 'invoice_generated': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO invoices (id, invoice_number, customer_id, lease_id, amount, due_date, status, description, search_text, created_at, updated_at)
          VALUES (${d.invoiceId}, ${d.invoiceNumber}, ${d.customerId}, ${d.leaseId}, ${d.amount}, ${d.dueDate}, ${d.status}, ${d.description},
                  ${d.invoiceNumber.toLowerCase()}, ${at}, ${at})`);
        await refreshCustomerColumns(tx, sql.fragment`i.id = ${d.invoiceId}`);
        return;
      }
      case 'customer_updated': {
        const { changes } = event.data;
        const touchesInvoices = ['firstName', 'lastName', 'email', 'facilityId'].some((field) => field in changes);
        if (touchesInvoices) await refreshCustomerColumns(tx, sql.fragment`i.customer_id = ${event.data.customerId}`);
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
      case 'payment_received': {
        const d = event.data;
        await tx.query(sql.unsafe`
          UPDATE invoices SET status = 'paid', paid_date = ${d.paidDate}, updated_at = ${at} WHERE id = ${d.invoiceId}`);
        await tx.query(sql.unsafe`
          INSERT INTO payments (id, customer_id, invoice_id, amount, method, status, stripe_payment_intent_id, created_at)
          VALUES (${d.paymentId}, ${d.customerId}, ${d.invoiceId}, ${d.amount}, ${d.method}, 'completed', ${d.stripePaymentIntentId}, ${at})`);
        return;
      }
    }
  },
};
