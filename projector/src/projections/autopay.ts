import { defineProjection } from '../projection.ts';

// Autopay's read tables: each renter's saved cards (brand, last 4, expiry; never a number), whether
// autopay is on and with which card (the customers list's "Autopay" filter), and the latest
// autopay charge of each invoice (the autopay process nominates its retries and unfinished
// attempts from it; staff see it on the customer page).
export const autopayProjection = defineProjection({
  name: 'autopay',
  tables: ['payment_methods', 'autopay_enrollments', 'autopay_charges'],
  reads: ['invoices'],
  canHandle: [
    'autopay_cancelled',
    'autopay_charge_attempted',
    'autopay_charge_failed',
    'autopay_charge_succeeded',
    'autopay_enrolled',
    'payment_method_removed',
    'payment_method_saved',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'payment_method_saved': {
        const d = event.data;
        rows.insert('payment_methods', {
          id: d.paymentMethodId,
          customer_id: d.customerId,
          provider: d.provider,
          brand: d.brand,
          last4: d.last4,
          exp_month: d.expMonth,
          exp_year: d.expYear,
          removed: false,
          created_at: at,
        });
        return;
      }
      case 'payment_method_removed':
        await rows.update('payment_methods', event.data.paymentMethodId, { removed: true });
        return;
      case 'autopay_enrolled':
        rows.insert('autopay_enrollments', {
          customer_id: event.data.customerId,
          enabled: true,
          payment_method_id: event.data.paymentMethodId,
          updated_at: at,
        });
        return;
      case 'autopay_cancelled':
        rows.insert('autopay_enrollments', { customer_id: event.data.customerId, enabled: false, payment_method_id: null, updated_at: at });
        return;
      case 'autopay_charge_attempted': {
        const d = event.data;
        const invoice = await rows.get('invoices', d.invoiceId);
        rows.insert('autopay_charges', {
          invoice_id: d.invoiceId,
          customer_id: d.customerId,
          facility_id: invoice?.facility_id ?? null,
          attempt_id: d.attemptId,
          attempt: d.attempt,
          amount: d.amount,
          date: d.date,
          status: 'attempted',
          reason: null,
          requires_action: false,
          next_attempt_on: null,
          updated_at: at,
        });
        return;
      }
      case 'autopay_charge_succeeded':
        await rows.update('autopay_charges', event.data.invoiceId, { status: 'succeeded', updated_at: at });
        return;
      case 'autopay_charge_failed': {
        const d = event.data;
        await rows.update('autopay_charges', d.invoiceId, {
          status: 'failed',
          reason: d.reason,
          requires_action: d.requiresAction,
          next_attempt_on: d.nextAttemptOn,
          updated_at: at,
        });
        return;
      }
      default:
        return;
    }
  },
});
