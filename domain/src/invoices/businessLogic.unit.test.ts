import type { DomainEvent } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CardRefund, cardChargeOutcome, customerStandingAfterBilling, decideInvoice, type InvoiceCommand, type ReceivedPayment } from './businessLogic.ts';
import { evolveInvoice, type InvoiceFields, initialInvoiceState, openBalance } from './invoice.ts';

const given = (...events: DomainEvent[]) => ({
  when: (command: InvoiceCommand) => decideInvoice(command, events.reduce(evolveInvoice, initialInvoiceState)),
});

const invoiceId = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e05';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const fields: InvoiceFields = {
  invoiceNumber: 'INV-202503-0001',
  customerId,
  leaseId: '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03',
  amount: '120.00',
  dueDate: '2025-03-01',
  status: 'draft',
  description: 'Monthly rent',
  lines: [{ kind: 'rent', description: 'Monthly rent', amount: '120.00', periodStart: '2025-03-01', periodEnd: '2025-03-31' }],
};
const generated: DomainEvent = { type: 'invoice_generated', data: { invoiceId, ...fields } };
const sent: DomainEvent = { type: 'invoice_sent', data: { invoiceId, sentOn: '2025-02-24' } };
const overdue: DomainEvent = { type: 'invoice_overdue', data: { invoiceId, customerId } };
const cancelled: DomainEvent = { type: 'invoice_cancelled', data: { invoiceId, reason: null } };
const payment: ReceivedPayment = {
  paymentId: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d06',
  amount: '120.00',
  method: 'card',
  paidDate: '2025-03-02',
  stripePaymentIntentId: 'pi_123',
};
const paid: DomainEvent = {
  type: 'payment_received',
  data: { ...payment, reference: null, receiptId: null, invoiceId, customerId, invoiceStatus: 'paid', openBalance: '0.00' },
};

describe('generate invoice', () => {
  it('generates an invoice', () => {
    expect(given().when({ type: 'GenerateInvoice', invoiceId, fields })).toEqual([generated]);
  });

  it('refuses to generate an invoice twice', () => {
    expect(() => given(generated).when({ type: 'GenerateInvoice', invoiceId, fields })).toThrow(ConflictError);
  });

  it('refuses an amount of zero', () => {
    expect(() => given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, amount: '0.00' } })).toThrow(DomainRuleError);
  });
});

describe('generate an invoice in the status staff chose: what happened, with its consequences', () => {
  const created = (status: InvoiceFields['status']): DomainEvent => ({ type: 'invoice_generated', data: { invoiceId, ...fields, status } });
  const paidAtDesk = { paymentId: payment.paymentId, method: 'check' as const, reference: '1042', paidDate: '2025-02-20' };

  it('created paid, records its payment in full as the desk took it, and nothing is left owing', () => {
    const events = given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, status: 'paid' }, payment: paidAtDesk });
    expect(events).toEqual([
      created('paid'),
      {
        type: 'payment_received',
        data: {
          ...paidAtDesk,
          invoiceId,
          customerId,
          amount: '120.00',
          stripePaymentIntentId: null,
          receiptId: null,
          invoiceStatus: 'paid',
          openBalance: '0.00',
        },
      },
    ]);
    const state = events.reduce(evolveInvoice, initialInvoiceState);
    expect(state.status === 'current' && [state.fields.status, openBalance(state)]).toEqual(['paid', '0.00']);
  });

  it('created cancelled, records its void with the reason; written off, the write-off of all of it', () => {
    expect(given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, status: 'cancelled' }, reason: ' Typed twice ' })).toEqual([
      created('cancelled'),
      { type: 'invoice_cancelled', data: { invoiceId, reason: 'Typed twice' } },
    ]);
    expect(given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, status: 'written_off' }, reason: 'Renter left, unreachable' })).toEqual([
      created('written_off'),
      { type: 'invoice_written_off', data: { invoiceId, customerId, amount: '120.00', reason: 'Renter left, unreachable' } },
    ]);
  });

  it('created draft, sent or overdue, is the invoice alone', () => {
    for (const status of ['draft', 'sent', 'overdue'] as const) {
      expect(given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, status } })).toEqual([created(status)]);
    }
  });

  it.each([
    ['paid without how it was paid', 'paid', {}, 'payment', 'payment: is required when the status is paid'],
    ['cancelled without a reason', 'cancelled', {}, 'reason', 'reason: is required when the status is cancelled'],
    ['written off with a blank reason', 'written_off', { reason: '  ' }, 'reason', 'reason: is required when the status is written_off'],
    ['a payment on an invoice not created paid', 'sent', { payment: paidAtDesk }, 'payment', 'payment: is only for an invoice created as paid'],
    ['a reason on an invoice not created cancelled or written off', 'paid', { payment: paidAtDesk, reason: 'why' }, 'reason', 'reason: is only'],
  ] as const)('refuses %s, naming the field', (_what, status, extra, field, message) => {
    const when = () => given().when({ type: 'GenerateInvoice', invoiceId, fields: { ...fields, status }, ...extra });
    expect(when).toThrow(expect.objectContaining({ name: 'DomainRuleError', field, message: expect.stringContaining(message) }));
  });
});

describe('send invoice', () => {
  it('sends a draft', () => {
    expect(given(generated).when({ type: 'SendInvoice', invoiceId, sentOn: '2025-02-24' })).toEqual([sent]);
  });

  it('refuses to send an invoice twice, saying it was already sent', () => {
    expect(() => given(generated, sent).when({ type: 'SendInvoice', invoiceId, sentOn: '2025-02-24' })).toThrow(/already sent/);
  });

  it('refuses to send a paid invoice', () => {
    expect(() => given(generated, sent, paid).when({ type: 'SendInvoice', invoiceId, sentOn: '2025-02-24' })).toThrow(ConflictError);
  });

  it('cannot send an invoice that does not exist', () => {
    expect(() => given().when({ type: 'SendInvoice', invoiceId, sentOn: '2025-02-24' })).toThrow(NotFoundError);
  });
});

describe('mark invoice overdue', () => {
  it('marks a sent invoice overdue once its due date has passed, naming the customer', () => {
    expect(given(generated, sent).when({ type: 'MarkInvoiceOverdue', invoiceId, today: '2025-03-02' })).toEqual([overdue]);
  });

  it('refuses on the due date itself', () => {
    expect(() => given(generated, sent).when({ type: 'MarkInvoiceOverdue', invoiceId, today: '2025-03-01' })).toThrow(DomainRuleError);
  });

  it('refuses a draft, which the customer has not received', () => {
    expect(() => given(generated).when({ type: 'MarkInvoiceOverdue', invoiceId, today: '2025-04-01' })).toThrow(ConflictError);
  });

  it('records nothing when the invoice is already overdue', () => {
    expect(given(generated, sent, overdue).when({ type: 'MarkInvoiceOverdue', invoiceId, today: '2025-04-01' })).toEqual([]);
  });
});

describe('record payment', () => {
  it('records a payment of the open balance for the invoice customer', () => {
    expect(given(generated, sent).when({ type: 'RecordPayment', invoiceId, payment })).toEqual([paid]);
  });

  it('accepts a payment of an overdue invoice', () => {
    expect(given(generated, sent, overdue).when({ type: 'RecordPayment', invoiceId, payment })).toEqual([paid]);
  });

  it('compares amounts exactly, not as text', () => {
    expect(given(generated, sent).when({ type: 'RecordPayment', invoiceId, payment: { ...payment, amount: '120.0' } })).toHaveLength(1);
  });

  it('takes part of the open balance and keeps the invoice open, but refuses more than it or nothing', () => {
    const part = { ...payment, amount: '20.00', stripePaymentIntentId: null };
    const [partial] = given(generated, sent).when({ type: 'RecordPayment', invoiceId, payment: part });
    expect(partial).toMatchObject({ type: 'payment_received', data: { amount: '20.00', invoiceStatus: 'sent', openBalance: '100.00' } });
    const state = [generated, sent, partial!].reduce(evolveInvoice, initialInvoiceState);
    expect(state).toMatchObject({ fields: { status: 'sent' } });
    const rest = { ...part, paymentId: '8f9a0b1c-2d3e-4f5a-8b6c-7d8e9f0a1b08', amount: '100.01' };
    expect(() => given(generated, sent, partial!).when({ type: 'RecordPayment', invoiceId, payment: rest })).toThrow(/at most the open balance of 100.00/);
    expect(() => given(generated, sent).when({ type: 'RecordPayment', invoiceId, payment: { ...part, amount: '0.00' } })).toThrow(/more than 0.00/);
    const [last] = given(generated, sent, partial!).when({ type: 'RecordPayment', invoiceId, payment: { ...rest, amount: '100.00' } });
    expect([generated, sent, partial!, last!].reduce(evolveInvoice, initialInvoiceState)).toMatchObject({ fields: { status: 'paid' } });
  });

  it('writes off what is still owed with a reason, and then takes no payment', () => {
    const [writtenOff] = given(generated, sent).when({ type: 'WriteOffInvoice', invoiceId, reason: 'Gone' });
    expect(writtenOff).toEqual({ type: 'invoice_written_off', data: { invoiceId, customerId, amount: '120.00', reason: 'Gone' } });
    expect(() => given(generated, sent, writtenOff!).when({ type: 'RecordPayment', invoiceId, payment })).toThrow(/written off/);
  });

  it('refuses a second payment of a paid invoice', () => {
    const another = { ...payment, paymentId: '8f9a0b1c-2d3e-4f5a-8b6c-7d8e9f0a1b07', stripePaymentIntentId: 'pi_456' };
    expect(() => given(generated, sent, paid).when({ type: 'RecordPayment', invoiceId, payment: another })).toThrow(/already paid/);
  });

  it('records a payment reported twice by the provider once', () => {
    expect(given(generated, sent, paid).when({ type: 'RecordPayment', invoiceId, payment })).toEqual([]);
  });

  it('refuses a payment of a cancelled invoice', () => {
    expect(() => given(generated, cancelled).when({ type: 'RecordPayment', invoiceId, payment })).toThrow(ConflictError);
  });
});

describe('a card charge and its refund', () => {
  const stateOf = (...events: DomainEvent[]) => events.reduce(evolveInvoice, initialInvoiceState);
  const AMOUNT = '120.00';
  const refund: CardRefund = {
    paymentId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a08',
    amount: '120.00',
    stripePaymentIntentId: 'pi_456',
    refundId: 're_456',
    reason: 'invoice_already_paid',
  };
  const refunded: DomainEvent = { type: 'payment_refunded', data: { ...refund, invoiceId, customerId } };
  const refundCommand: InvoiceCommand = { type: 'RecordRefund', invoiceId, refund };

  it('pays an open invoice, and is done when this very charge paid it', () => {
    expect(cardChargeOutcome(stateOf(generated, sent), 'pi_123', AMOUNT)).toEqual({ kind: 'record' });
    expect(cardChargeOutcome(stateOf(generated, sent, paid), 'pi_123', AMOUNT)).toEqual({ kind: 'done' });
  });

  it('refunds a charge that is not the open balance of an open invoice, rather than keep it unrecorded', () => {
    expect(cardChargeOutcome(stateOf(generated, sent), 'pi_789', '119.99')).toEqual({ kind: 'refund', reason: 'amount_not_balance' });
    expect(cardChargeOutcome(stateOf(generated, sent), 'pi_789', '120.0')).toEqual({ kind: 'record' });
  });

  it('refunds a charge on an invoice paid by another, or cancelled, and is done once it was refunded', () => {
    expect(cardChargeOutcome(stateOf(generated, sent, paid), 'pi_456', AMOUNT)).toEqual({ kind: 'refund', reason: 'invoice_already_paid' });
    expect(cardChargeOutcome(stateOf(generated, cancelled), 'pi_456', AMOUNT)).toEqual({ kind: 'refund', reason: 'invoice_cancelled' });
    expect(cardChargeOutcome(stateOf(generated, sent, paid, refunded), 'pi_456', AMOUNT)).toEqual({ kind: 'done' });
  });

  it('records the refund of a charge the invoice could not take, naming its customer', () => {
    expect(given(generated, sent, paid).when(refundCommand)).toEqual([refunded]);
  });

  it('records a refund reported twice once', () => {
    expect(given(generated, sent, paid, refunded).when(refundCommand)).toEqual([]);
  });

  it('never refunds the charge that paid the invoice, nor one on an invoice still open', () => {
    const ofPayment: InvoiceCommand = { type: 'RecordRefund', invoiceId, refund: { ...refund, stripePaymentIntentId: 'pi_123' } };
    expect(() => given(generated, sent, paid).when(ofPayment)).toThrow(ConflictError);
    expect(() => given(generated, sent).when(refundCommand)).toThrow(ConflictError);
  });
});

describe('cancel invoice', () => {
  it('cancels a sent invoice', () => {
    expect(given(generated, sent).when({ type: 'CancelInvoice', invoiceId })).toEqual([cancelled]);
  });

  it('records nothing when the invoice is already cancelled', () => {
    expect(given(generated, cancelled).when({ type: 'CancelInvoice', invoiceId })).toEqual([]);
  });

  it('refuses to cancel a paid invoice', () => {
    expect(() => given(generated, sent, paid).when({ type: 'CancelInvoice', invoiceId })).toThrow(ConflictError);
  });
});

describe('customer standing after billing', () => {
  it('makes an active customer with an overdue invoice overdue', () => {
    expect(customerStandingAfterBilling('active', true)).toBe('overdue');
  });

  it('makes an overdue customer with no overdue invoice left active again', () => {
    expect(customerStandingAfterBilling('overdue', false)).toBe('active');
  });

  it('changes nothing when the standing already matches', () => {
    expect(customerStandingAfterBilling('overdue', true)).toBeNull();
    expect(customerStandingAfterBilling('active', false)).toBeNull();
  });

  it('leaves inactive and terminated customers as the manager set them', () => {
    for (const status of ['inactive', 'terminated'] as const) {
      expect(customerStandingAfterBilling(status, true)).toBeNull();
      expect(customerStandingAfterBilling(status, false)).toBeNull();
    }
  });
});

describe('refund a payment', () => {
  const refundId = '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e09';
  const refund = (amount: string, refundDate = '2025-02-20', reason = 'Gate broken') => ({
    type: 'RefundPayment' as const,
    invoiceId,
    refund: { refundId, paymentId: payment.paymentId, amount, reason, refundDate, providerRefundId: 're_1' },
  });
  const issued = (amount: string, invoiceStatus: 'sent' | 'overdue' | 'paid'): DomainEvent => ({
    type: 'payment_refund_issued',
    data: { ...refund(amount).refund, invoiceId, customerId, method: 'card', invoiceStatus },
  });

  it('reopens a paid invoice: sent before its due date is past, overdue after', () => {
    expect(given(generated, sent, paid).when(refund('20.00'))).toEqual([issued('20.00', 'sent')]);
    const late = refund('20.00', '2025-03-02');
    expect(given(generated, sent, paid).when(late)).toEqual([
      { type: 'payment_refund_issued', data: { ...late.refund, invoiceId, customerId, method: 'card', invoiceStatus: 'overdue' } },
    ]);
  });

  it('raises the open balance by the refund, records a refund once, and never gives back more than is left', () => {
    const state = [generated, sent, paid, issued('20.00', 'sent')].reduce(evolveInvoice, initialInvoiceState);
    if (state.status !== 'current') throw new Error('no invoice');
    expect(state.fields.status).toBe('sent');
    expect(state.payments[0]).toMatchObject({ refunded: '20.00' });
    expect(given(generated, sent, paid, issued('20.00', 'sent')).when(refund('20.00'))).toEqual([]);
    const other = { ...refund('100.01'), refund: { ...refund('100.01').refund, refundId: '6e7f8091-ab2c-4d3e-9f40-5b6c7d8e9f10' } };
    expect(() => given(generated, sent, paid, issued('20.00', 'sent')).when(other)).toThrow(
      new DomainRuleError('amount: must be at most 100.00, what is left of this payment to refund', 'amount'),
    );
  });

  it('refuses a refund of nothing, without a reason, of a payment it does not have, or on a written-off invoice', () => {
    expect(() => given(generated, sent, paid).when(refund('0.00'))).toThrow(DomainRuleError);
    expect(() => given(generated, sent, paid).when(refund('5.00', '2025-02-20', ' '))).toThrow(DomainRuleError);
    expect(() => given(generated, sent).when(refund('5.00'))).toThrow(NotFoundError);
    const partial: DomainEvent = {
      ...paid,
      data: { ...(paid.data as ReceivedPayment & { invoiceId: string; customerId: string; reference: null; receiptId: null }), amount: '50.00' },
    } as DomainEvent;
    const writtenOff: DomainEvent = { type: 'invoice_written_off', data: { invoiceId, customerId, amount: '70.00', reason: 'Gone' } };
    expect(() => given(generated, sent, partial, writtenOff).when(refund('5.00'))).toThrow(ConflictError);
  });
});

describe('request a card refund (before the provider is asked)', () => {
  const refundId = '7f809102-bc3d-4e4f-8a51-6c7d8e9fa011';
  const request = (amount: string, id = refundId) => ({
    type: 'RequestRefund' as const,
    invoiceId,
    refund: { refundId: id, paymentId: payment.paymentId, amount, reason: 'Gate broken', refundDate: '2025-02-20' },
  });
  const requested = (amount: string, id = refundId): DomainEvent => ({
    type: 'payment_refund_requested',
    data: { ...request(amount, id).refund, invoiceId, customerId, method: 'card' },
  });
  const issue = (amount: string, id = refundId) => ({
    type: 'RefundPayment' as const,
    invoiceId,
    refund: { ...request(amount, id).refund, providerRefundId: 're_1' },
  });

  it('records the request once, holding its amount against what the payment can still give back, without reopening the invoice', () => {
    expect(given(generated, sent, paid).when(request('80.00'))).toEqual([requested('80.00')]);
    expect(given(generated, sent, paid, requested('80.00')).when(request('80.00'))).toEqual([]);
    const state = [generated, sent, paid, requested('80.00')].reduce(evolveInvoice, initialInvoiceState);
    if (state.status !== 'current') throw new Error('no invoice');
    expect(state.fields.status).toBe('paid');
    expect(state.payments[0]).toMatchObject({ refunded: '0.00', pendingRefunds: [expect.objectContaining({ refundId, amount: '80.00' })] });
    const other = '809102a3-cd4e-4f50-9b62-7d8e9fa0b122';
    expect(() => given(generated, sent, paid, requested('80.00')).when(request('40.01', other))).toThrow(
      new DomainRuleError('amount: must be at most 40.00, what is left of this payment to refund', 'amount'),
    );
    expect(() => given(generated, sent, paid, requested('120.00')).when(issue('1.00', other))).toThrow(
      new DomainRuleError('amount: the rest of this payment is already being refunded', 'amount'),
    );
  });

  it('issues a requested refund whatever was decided since, and once; a card payment only', () => {
    const writtenOff: DomainEvent = { type: 'invoice_written_off', data: { invoiceId, customerId, amount: '0.00', reason: 'Gone' } };
    const events = given(generated, sent, paid, requested('120.00'), writtenOff).when(issue('120.00'));
    expect(events).toEqual([expect.objectContaining({ type: 'payment_refund_issued', data: expect.objectContaining({ refundId, amount: '120.00' }) })]);
    const after = [generated, sent, paid, requested('120.00'), events[0]!].reduce(evolveInvoice, initialInvoiceState);
    if (after.status !== 'current') throw new Error('no invoice');
    expect(after.payments[0]).toMatchObject({ refunded: '120.00', pendingRefunds: [], refundIds: [refundId] });
    expect(given(generated, sent, paid, requested('120.00'), events[0]!).when(issue('120.00'))).toEqual([]);
    expect(given(generated, sent, paid, requested('120.00'), events[0]!).when(request('120.00'))).toEqual([]);
    const cash: DomainEvent = { ...paid, data: { ...(paid.data as object), method: 'cash', stripePaymentIntentId: null } } as DomainEvent;
    expect(() => given(generated, sent, cash).when(request('5.00'))).toThrow(ConflictError);
  });
});

describe('add an invoice line', () => {
  const fee = { kind: 'late_fee' as const, description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null };
  const tax = { kind: 'tax' as const, description: 'Sales tax 7.25% on Late fee', amount: '1.81', periodStart: null, periodEnd: null };

  it('adds a late fee and its sales tax in one decision, each with the total after it', () => {
    expect(given(generated, sent, overdue).when({ type: 'AddInvoiceLine', invoiceId, line: fee, tax })).toEqual([
      { type: 'invoice_line_added', data: { invoiceId, customerId, line: fee, amount: '145.00' } },
      { type: 'invoice_line_added', data: { invoiceId, customerId, line: tax, amount: '146.81' } },
    ]);
  });

  it('adds the late fee once: a second one, taxed or not, adds nothing', () => {
    const added: DomainEvent[] = [
      { type: 'invoice_line_added', data: { invoiceId, customerId, line: fee, amount: '145.00' } },
      { type: 'invoice_line_added', data: { invoiceId, customerId, line: tax, amount: '146.81' } },
    ];
    expect(given(generated, sent, overdue, ...added).when({ type: 'AddInvoiceLine', invoiceId, line: fee, tax })).toEqual([]);
  });
});
