import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

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
          INSERT INTO invoices (id, invoice_number, customer_id, lease_id, amount, due_date, status, description, created_at, updated_at)
          VALUES (${d.invoiceId}, ${d.invoiceNumber}, ${d.customerId}, ${d.leaseId}, ${d.amount}, ${d.dueDate}, ${d.status}, ${d.description}, ${at}, ${at})`);
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
