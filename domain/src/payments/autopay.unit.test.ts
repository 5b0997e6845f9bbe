import { describe, expect, it } from 'vitest';
import type { InvoiceState } from '../invoices/invoice.ts';
import { type AutopayChargesState, autopayStep, nextAttemptOn } from './autopay.ts';
import { initialProfileState, type PaymentProfileState } from './profile.ts';

const card = {
  paymentMethodId: '00000000-0000-4000-8000-000000000001',
  provider: 'test' as const,
  providerCustomerId: 'cus_test_1',
  providerPaymentMethodId: 'pm_test_1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  removed: false,
};
const enrolled: PaymentProfileState = { cards: [card], autopayMethodId: card.paymentMethodId };
const invoice = (status: 'sent' | 'overdue' | 'paid' = 'sent', amount = '120.00'): InvoiceState => ({
  status: 'current',
  invoiceId: '00000000-0000-4000-8000-000000000002',
  fields: {
    invoiceNumber: 'INV-1',
    customerId: '00000000-0000-4000-8000-000000000003',
    leaseId: null,
    amount,
    dueDate: '2026-06-01',
    status,
    description: null,
    lines: [],
  },
  payments: [],
  refundedIntentIds: [],
  owedSince: '2026-05-27',
});
const none: AutopayChargesState = { attempts: [] };
const facts = { charges: none, invoice: invoice(), profile: enrolled, automaticCharging: true, today: '2026-06-01' };

describe('the autopay decision', () => {
  it('charges the open balance on the due date, for an enrolled renter with Automatic Charging on', () => {
    expect(autopayStep(facts)).toEqual({ kind: 'charge', attempt: 1, amount: '120.00' });
    expect(autopayStep({ ...facts, today: '2026-05-31' }).kind).toBe('none');
    expect(autopayStep({ ...facts, automaticCharging: false }).kind).toBe('none');
    expect(autopayStep({ ...facts, profile: initialProfileState }).kind).toBe('none');
    expect(autopayStep({ ...facts, profile: { ...enrolled, autopayMethodId: null } }).kind).toBe('none');
    expect(autopayStep({ ...facts, invoice: invoice('paid') }).kind).toBe('none');
    // A missed day within the retry window still charges; after it, nothing.
    expect(autopayStep({ ...facts, today: '2026-06-06' }).kind).toBe('charge');
    expect(autopayStep({ ...facts, today: '2026-06-07' }).kind).toBe('none');
  });

  it('finishes an attempt recorded without its outcome, whatever changed since', () => {
    const attempt = {
      attemptId: 'a',
      attempt: 1,
      amount: '120.00',
      date: '2026-06-01',
      outcome: null,
      requiresAction: false,
      nextAttemptOn: null,
      stripePaymentIntentId: null,
    };
    const step = autopayStep({ ...facts, charges: { attempts: [attempt] }, automaticCharging: false, invoice: invoice('paid') });
    expect(step).toEqual({ kind: 'finish', attempt });
  });

  it('retries 1, 3 and 5 days after the due date, never twice a day, and not a card that needs the renter', () => {
    expect([1, 2, 3, 4].map((n) => nextAttemptOn('2026-06-01', n, '2026-06-01', false))).toEqual(['2026-06-02', '2026-06-04', '2026-06-06', null]);
    expect(nextAttemptOn('2026-06-01', 1, '2026-06-05', false)).toBe('2026-06-06');
    expect(nextAttemptOn('2026-06-01', 1, '2026-06-01', true)).toBeNull();
  });
});
