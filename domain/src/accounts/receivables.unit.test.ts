import { singleLine } from '@storage/contracts/billing';
import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { decideInvoice, type InvoiceCommand } from '../invoices/businessLogic.ts';
import { evolveInvoice, type InvoiceState, initialInvoiceState } from '../invoices/invoice.ts';
import { type CurrentInvoice, lateFrom, pastDue, pastDueInvoices } from './receivables.ts';

// The day an invoice is late from, given its history: the day its late fee's grace days and the
// delinquency schedule's days count from.

const invoiceId = '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e01';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const fields = { invoiceNumber: 'INV-1', customerId, leaseId: null, amount: '120.00', dueDate: '2026-12-01', status: 'draft' as const, description: null };

/** The invoice after the commands, each decided on what the ones before it left. */
function given(...commands: InvoiceCommand[]): CurrentInvoice {
  let state: InvoiceState = initialInvoiceState;
  for (const command of commands) state = decideInvoice(command, state).reduce(evolveInvoice, state);
  if (state.status !== 'current') throw new Error('no invoice');
  return state;
}
const generate: InvoiceCommand = { type: 'GenerateInvoice', invoiceId, fields: { ...fields, lines: [singleLine(fields)] } };
const send = (sentOn: string): InvoiceCommand => ({ type: 'SendInvoice', invoiceId, sentOn });
const pay = (amount: string, paidDate: string): InvoiceCommand => ({
  type: 'RecordPayment',
  invoiceId,
  payment: { paymentId: `pay-${paidDate}`, amount, method: 'cash', paidDate, stripePaymentIntentId: null },
});
const refund = (amount: string, refundDate: string): InvoiceCommand => ({
  type: 'RefundPayment',
  invoiceId,
  refund: { refundId: `refund-${refundDate}`, paymentId: 'pay-2026-11-28', amount, reason: 'Goodwill', refundDate, providerRefundId: null },
});

describe('the day an invoice is late from', () => {
  it('is its due date for an invoice sent before it was due', () => {
    expect(lateFrom(given(generate, send('2026-11-26')))).toBe('2026-12-01');
  });

  it('is the day it was sent for an invoice sent after its due date (a past period billed late)', () => {
    expect(lateFrom(given(generate, send('2026-12-20')))).toBe('2026-12-20');
  });

  it('is the day a refund reopened it after it was paid, and stays so through a partial payment', () => {
    const reopened = given(generate, send('2026-11-26'), pay('120.00', '2026-11-28'), refund('20.00', '2027-06-10'));
    expect(reopened.fields.status).toBe('overdue');
    expect(lateFrom(reopened)).toBe('2027-06-10');
    // Past due all the same: what is owed counts in the balance from the day after its due date.
    expect(pastDue([reopened], '2027-06-11')).toBe('20.00');
    expect(pastDueInvoices([reopened], '2027-06-11').map((i) => i.invoiceId)).toEqual([invoiceId]);
  });

  it('is unchanged by a refund on an invoice still open (it was owed all along)', () => {
    const open = given(generate, send('2026-11-26'), pay('100.00', '2026-11-28'), refund('20.00', '2027-06-10'));
    expect(open.fields.status).toBe('sent');
    expect(lateFrom(open)).toBe('2026-12-01');
  });

  it('is its due date when its sending does not say the day (written before the day was kept)', () => {
    const legacySent: DomainEvent = { type: 'invoice_sent', data: { invoiceId, sentOn: null } };
    const state = evolveInvoice(given(generate), legacySent) as CurrentInvoice;
    expect(lateFrom(state)).toBe('2026-12-01');
  });
});
