import { singleLine } from '@storage/contracts/billing';
import { describe, expect, it } from 'vitest';
import { describeInvoiceEvent } from './history.ts';

const invoiceId = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e05';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';

describe('an invoice event in words', () => {
  it('says what was generated, for how much and when it is due', () => {
    expect(
      describeInvoiceEvent({
        type: 'invoice_generated',
        data: {
          invoiceId,
          invoiceNumber: 'INV-1',
          customerId,
          leaseId: null,
          amount: '1234.50',
          dueDate: '2025-03-01',
          status: 'draft',
          description: null,
          lines: [singleLine({ leaseId: null, description: null, amount: '1234.50' })],
        },
      }),
    ).toBe('Invoice INV-1 created as draft for $1,234.50, due Mar 1, 2025');
  });

  it('says how a payment was made', () => {
    expect(
      describeInvoiceEvent({
        type: 'payment_received',
        data: {
          paymentId: invoiceId,
          invoiceId,
          customerId,
          amount: '120.00',
          method: 'bank_transfer',
          paidDate: '2025-03-02',
          stripePaymentIntentId: null,
          reference: null,
          receiptId: null,
          invoiceStatus: null,
          openBalance: null,
        },
      }),
    ).toBe('Payment of $120.00 received by bank transfer');
  });

  it('names sending, becoming overdue and cancelling', () => {
    expect(describeInvoiceEvent({ type: 'invoice_sent', data: { invoiceId, sentOn: '2026-01-27' } })).toBe('Invoice sent to the customer');
    expect(describeInvoiceEvent({ type: 'invoice_overdue', data: { invoiceId, customerId } })).toBe('Marked overdue: the due date passed without payment');
    expect(describeInvoiceEvent({ type: 'invoice_cancelled', data: { invoiceId, reason: null } })).toBe('Invoice cancelled');
  });

  it('leaves out events that are not about the invoice', () => {
    expect(describeInvoiceEvent({ type: 'notification_read', data: { notificationId: invoiceId } })).toBeNull();
  });

  it('says which charge the billing engine added, and to which invoice', () => {
    const line = { kind: 'late_fee' as const, description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null };
    expect(describeInvoiceEvent({ type: 'invoice_line_added', data: { invoiceId, customerId, line, amount: '145.00' } }, 'INV-0042')).toBe(
      'Late fee of $25.00 added to INV-0042',
    );
  });
});
