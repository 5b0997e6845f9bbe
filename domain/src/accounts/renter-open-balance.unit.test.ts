import { singleLine } from '@storage/contracts/billing';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { evolveInvoice, type InvoiceState, initialInvoiceState } from '../invoices/invoice.ts';
import { renterOpenBalance } from './receivables.ts';

// The renter's open balance, given their invoices as their own streams have them: what an archive
// refuses a renter for.

const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
let next = 0;

/** An invoice created with `status` for `amount`, then the events that followed. */
function invoice(status: 'draft' | 'sent' | 'overdue' | 'paid' | 'cancelled', amount: string, ...then: ((invoiceId: string) => DomainEvent)[]): InvoiceState {
  const invoiceId = `5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e${String(++next).padStart(2, '0')}`;
  const fields = { invoiceNumber: `INV-${next}`, customerId, leaseId: null, amount, dueDate: '2026-12-01', status, description: null };
  const generated: DomainEvent = { type: 'invoice_generated', data: { invoiceId, ...fields, lines: [singleLine(fields)] } };
  return [generated, ...then.map((event) => event(invoiceId))].reduce(evolveInvoice, initialInvoiceState);
}
const paid =
  (amount: string) =>
  (invoiceId: string): DomainEvent => ({
    type: 'payment_received',
    data: {
      paymentId: `${invoiceId.slice(0, -2)}ff`,
      invoiceId,
      customerId,
      amount,
      method: 'cash',
      paidDate: '2026-12-05',
      stripePaymentIntentId: null,
      reference: null,
      receiptId: null,
      invoiceStatus: null,
      openBalance: null,
    },
  });
const overdue = (invoiceId: string): DomainEvent => ({ type: 'invoice_overdue', data: { invoiceId, customerId } });
const cancelled = (invoiceId: string): DomainEvent => ({ type: 'invoice_cancelled', data: { invoiceId, reason: 'Billed twice' } });

describe("the renter's open balance", () => {
  it('is what their sent and overdue invoices still owe, after the payments on them', () => {
    const invoices = [invoice('sent', '120.00', paid('20.00')), invoice('sent', '45.50', overdue), invoice('overdue', '0.10')];
    expect(renterOpenBalance(invoices)).toBe('145.60');
  });

  it('leaves out what is not owed: a draft, one paid in full, one cancelled, and none that exists', () => {
    const invoices = [invoice('draft', '99.00'), invoice('sent', '80.00', paid('80.00')), invoice('sent', '30.00', cancelled), initialInvoiceState];
    expect(renterOpenBalance(invoices)).toBe('0.00');
    expect(renterOpenBalance([])).toBe('0.00');
  });
});
