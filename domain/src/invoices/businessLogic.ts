import type { InvoiceLine } from '@storage/contracts/billing';
import type { CustomerStatus, DeskPaymentMethod, InvoiceStatus } from '@storage/contracts/enums';
import type { DomainEvent, EventData } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type InvoiceFields, type InvoicePayment, type InvoiceState, leftToRefund, openBalance } from './invoice.ts';

/** How an invoice created as paid was paid (at the desk), recorded as its payment in full on paidDate. */
export type PaidAtCreation = { paymentId: string; method: DeskPaymentMethod; reference: string | null; paidDate: string };
/**
 * An invoice as staff type it. Its status is what happened: `payment` is how one created paid was
 * paid, `reason` why one created cancelled or written off is so (see `statusAtCreation`).
 */
export type GenerateInvoice = {
  type: 'GenerateInvoice';
  invoiceId: string;
  fields: InvoiceFields;
  payment?: PaidAtCreation | null;
  reason?: string | null;
};
/** `sentOn`: the facility's date it is sent on (the billing day's in a catch-up). */
export type SendInvoice = { type: 'SendInvoice'; invoiceId: string; sentOn: string };
/** `today` is an ISO date (YYYY-MM-DD). */
export type MarkInvoiceOverdue = { type: 'MarkInvoiceOverdue'; invoiceId: string; today: string };
/** The payment as received; the invoice supplies whose it is. reference: a check number; receiptId: the desk payment it is part of. */
export type ReceivedPayment = Omit<EventData<'payment_received'>, 'invoiceId' | 'customerId' | 'reference' | 'receiptId' | 'invoiceStatus' | 'openBalance'> & {
  reference?: string | null;
  receiptId?: string | null;
};
export type RecordPayment = { type: 'RecordPayment'; invoiceId: string; payment: ReceivedPayment };
export type CancelInvoice = { type: 'CancelInvoice'; invoiceId: string; reason?: string | null };
/** What is still owed becomes bad debt. */
export type WriteOffInvoice = { type: 'WriteOffInvoice'; invoiceId: string; reason: string };
/** The refund the provider made of a card charge the invoice could not take; the invoice supplies whose it is. */
export type CardRefund = Omit<EventData<'payment_refunded'>, 'invoiceId' | 'customerId'>;
export type RecordRefund = { type: 'RecordRefund'; invoiceId: string; refund: CardRefund };
/**
 * A line added to an open invoice (the late fee: once per invoice), with its sales tax line when it
 * is taxed: both in one decision, so a fee is never recorded without its tax.
 */
export type AddInvoiceLine = { type: 'AddInvoiceLine'; invoiceId: string; line: InvoiceLine; tax?: InvoiceLine | null };
/** Staff give back part or all of a payment; refundDate: the facility's today; providerRefundId: the provider's refund of a card payment. */
export type StaffRefund = Omit<EventData<'payment_refund_issued'>, 'invoiceId' | 'customerId' | 'method' | 'invoiceStatus'>;
export type RefundPayment = { type: 'RefundPayment'; invoiceId: string; refund: StaffRefund };
/** A card refund staff decided, recorded before the provider is asked (providerRefundId follows on issue). */
export type RequestRefund = { type: 'RequestRefund'; invoiceId: string; refund: Omit<StaffRefund, 'providerRefundId'> };
export type InvoiceCommand =
  | RefundPayment
  | RequestRefund
  | GenerateInvoice
  | SendInvoice
  | MarkInvoiceOverdue
  | RecordPayment
  | CancelInvoice
  | RecordRefund
  | AddInvoiceLine
  | WriteOffInvoice;

function existing(state: InvoiceState) {
  if (state.status === 'none') throw new NotFoundError('Invoice not found');
  return state;
}

/**
 * What the status an invoice is created with asks for: how it was paid when paid, why when
 * cancelled or written off, neither otherwise (so nothing given is silently dropped). Checked
 * before anything is written, and again by the decision.
 */
export function statusAtCreation(status: InvoiceStatus, payment: unknown, reason: string | null | undefined): void {
  if (status === 'paid' && !payment) throw new DomainRuleError('payment: is required when the status is paid', 'payment');
  if (status !== 'paid' && payment) throw new DomainRuleError('payment: is only for an invoice created as paid', 'payment');
  const wantsReason = status === 'cancelled' || status === 'written_off';
  const given = reason?.trim() ?? '';
  if (wantsReason && given === '') throw new DomainRuleError(`reason: is required when the status is ${status}`, 'reason');
  if (!wantsReason && given !== '') throw new DomainRuleError('reason: is only for an invoice created cancelled or written off', 'reason');
}

/**
 * A new invoice, and what its status records with it in the same append: created paid, its
 * payment in full (the ledger charges it and takes the payment, nothing is owed); cancelled, its
 * void (the ledger reverses its charge); written off, the write-off of all of it as bad debt.
 * A label alone would leave the books owing what the invoice says is settled.
 */
export function generateInvoice(command: GenerateInvoice, state: InvoiceState): DomainEvent[] {
  if (state.status !== 'none') throw new ConflictError('This invoice already exists');
  const { invoiceId, fields, payment = null, reason = null } = command;
  if (toCents(fields.amount) <= 0n) throw new DomainRuleError('The amount must be more than 0.00', 'amount');
  const total = fields.lines.reduce((sum, line) => sum + toCents(line.amount), 0n);
  if (total !== toCents(fields.amount)) throw new DomainRuleError(`The amount must be the sum of the lines, ${fromCents(total)}`, 'amount');
  statusAtCreation(fields.status, payment, reason);
  const generated: DomainEvent = { type: 'invoice_generated', data: { invoiceId, ...fields } };
  const { customerId, amount } = fields;
  switch (fields.status) {
    case 'paid': {
      const { paymentId, method, reference, paidDate } = payment!;
      return [
        generated,
        {
          type: 'payment_received',
          data: {
            paymentId,
            invoiceId,
            customerId,
            amount,
            method,
            paidDate,
            stripePaymentIntentId: null,
            reference,
            receiptId: null,
            invoiceStatus: 'paid',
            openBalance: '0.00',
          },
        },
      ];
    }
    case 'cancelled':
      return [generated, { type: 'invoice_cancelled', data: { invoiceId, reason: reason!.trim() } }];
    case 'written_off':
      return [generated, { type: 'invoice_written_off', data: { invoiceId, customerId, amount, reason: reason!.trim() } }];
    default:
      return [generated];
  }
}

export function sendInvoice(command: SendInvoice, state: InvoiceState): DomainEvent[] {
  const { status } = existing(state).fields;
  if (status === 'sent') throw new ConflictError('This invoice was already sent');
  if (status !== 'draft') throw new ConflictError(`Only a draft invoice can be sent; this one is ${status}`);
  return [{ type: 'invoice_sent', data: { invoiceId: command.invoiceId, sentOn: command.sentOn } }];
}

export function markInvoiceOverdue(command: MarkInvoiceOverdue, state: InvoiceState): DomainEvent[] {
  const { status, dueDate, customerId } = existing(state).fields;
  if (status === 'overdue') return [];
  if (status !== 'sent') throw new ConflictError(`Only a sent invoice can become overdue; this one is ${status}`);
  // ISO dates (YYYY-MM-DD) compare correctly as text.
  if (command.today <= dueDate) throw new DomainRuleError(`The invoice is not overdue before its due date ${dueDate} has passed`);
  return [{ type: 'invoice_overdue', data: { invoiceId: command.invoiceId, customerId } }];
}

export function recordPayment(command: RecordPayment, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { payment } = command;
  const { status, customerId } = invoice.fields;
  // The same payment reported again (a provider's replay, a retried desk payment) is recorded once.
  if (invoice.payments.some((p) => p.paymentId === payment.paymentId)) return [];
  const sameIntent = payment.stripePaymentIntentId !== null && invoice.payments.some((p) => p.stripePaymentIntentId === payment.stripePaymentIntentId);
  if (sameIntent) return [];
  if (status === 'paid') throw new ConflictError('This invoice is already paid');
  if (status === 'cancelled') throw new ConflictError('This invoice is cancelled and cannot be paid');
  if (status === 'written_off') throw new ConflictError('This invoice was written off and cannot be paid');
  if (status === 'draft') throw new ConflictError('This invoice is a draft: send it before taking a payment');
  const open = openBalance(invoice);
  if (toCents(payment.amount) <= 0n) throw new DomainRuleError('The payment must be more than 0.00', 'amount');
  if (toCents(payment.amount) > toCents(open)) throw new DomainRuleError(`The payment must be at most the open balance of ${open}`, 'amount');
  const { reference = null, receiptId = null, ...received } = payment;
  const left = toCents(open) - toCents(payment.amount);
  // Paid in full when nothing is left owing; a partial payment keeps its status (sent, overdue).
  const invoiceStatus = left === 0n ? 'paid' : status;
  return [
    {
      type: 'payment_received',
      data: { ...received, reference, receiptId, invoiceId: command.invoiceId, customerId, invoiceStatus, openBalance: fromCents(left) },
    },
  ];
}

/**
 * What a succeeded card charge means for the invoice it names: pay it ('record'), nothing more
 * when this very charge already paid it or was already refunded ('done'), or give the money back
 * ('refund') when the invoice was paid by something else, cancelled, or the charge is not its open
 * balance (an intent made before the balance changed). Never keep money silently.
 */
export type CardChargeOutcome = { kind: 'record' } | { kind: 'done' } | { kind: 'refund'; reason: CardRefund['reason'] };

export function cardChargeOutcome(state: InvoiceState, intentId: string, amount: string): CardChargeOutcome {
  const invoice = existing(state);
  if (invoice.refundedIntentIds.includes(intentId)) return { kind: 'done' };
  if (invoice.payments.some((p) => p.stripePaymentIntentId === intentId)) return { kind: 'done' };
  if (invoice.fields.status === 'paid') return { kind: 'refund', reason: 'invoice_already_paid' };
  if (invoice.fields.status === 'cancelled' || invoice.fields.status === 'written_off') return { kind: 'refund', reason: 'invoice_cancelled' };
  if (toCents(amount) !== toCents(openBalance(invoice))) return { kind: 'refund', reason: 'amount_not_balance' };
  return { kind: 'record' };
}

export function recordRefund(command: RecordRefund, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { refund } = command;
  // A refund reported twice (replays, races) is recorded once.
  if (invoice.refundedIntentIds.includes(refund.stripePaymentIntentId)) return [];
  const outcome = cardChargeOutcome(state, refund.stripePaymentIntentId, refund.amount);
  if (outcome.kind !== 'refund') throw new ConflictError('Only a charge the invoice could not take is refunded');
  if (toCents(refund.amount) <= 0n) throw new DomainRuleError('The refund must be more than 0.00', 'amount');
  return [{ type: 'payment_refunded', data: { ...refund, invoiceId: command.invoiceId, customerId: invoice.fields.customerId } }];
}

/**
 * The payment of the invoice that staff may give back `amount` of, or why not: never more than
 * what the payment has left unrefunded, never a payment of account credit (that money is the
 * renter's credit: refund the credit instead), never on a written-off invoice (it is closed).
 * Checked before a card refund is asked of the provider, and again when it is recorded.
 */
export function refundablePayment(state: InvoiceState, paymentId: string, amount: string, reason: string): InvoicePayment {
  const invoice = existing(state);
  const payment = invoice.payments.find((p) => p.paymentId === paymentId);
  if (!payment) throw new NotFoundError('Payment not found');
  const { status, invoiceNumber } = invoice.fields;
  if (status === 'written_off') throw new ConflictError(`Invoice ${invoiceNumber} was written off: its payments stand`);
  if (payment.method === 'account_credit') throw new ConflictError('This payment was made from account credit; it cannot be refunded as money');
  if (reason.trim() === '') throw new DomainRuleError('reason: is required', 'reason');
  const left = leftToRefund(payment);
  if (toCents(amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  if (toCents(amount) > toCents(left)) {
    throw new DomainRuleError(
      toCents(left) === 0n
        ? payment.pendingRefunds.length > 0
          ? 'amount: the rest of this payment is already being refunded'
          : 'amount: this payment has been refunded in full'
        : `amount: must be at most ${left}, what is left of this payment to refund`,
      'amount',
    );
  }
  return payment;
}

/**
 * A refund of a payment: the money is owed again, so the open balance rises by it and a paid
 * invoice reopens (overdue when its due date has passed on the refund's day, else sent). Recorded
 * once per refund id.
 */
export function refundPayment(command: RefundPayment, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { refund } = command;
  if (invoice.payments.some((p) => p.refundIds.includes(refund.refundId))) return [];
  // A requested refund the provider has made is recorded as requested, whatever happened since
  // (its amount was held; the money has gone back): only an unrequested one is checked here.
  const requested = invoice.payments.find((p) => p.paymentId === refund.paymentId && p.pendingRefunds.some((r) => r.refundId === refund.refundId));
  const payment = requested ?? refundablePayment(state, refund.paymentId, refund.amount, refund.reason);
  const { status, dueDate, customerId } = invoice.fields;
  const invoiceStatus = status === 'paid' ? (refund.refundDate > dueDate ? 'overdue' : 'sent') : status;
  return [
    {
      type: 'payment_refund_issued',
      data: { ...refund, invoiceId: command.invoiceId, customerId, method: payment.method, invoiceStatus },
    },
  ];
}

/**
 * A card refund decided before the provider is asked: the same checks as a refund, and its amount
 * is held against what the payment can still give back, so two refunds can never together exceed
 * it. Once per refund id (requested or already issued: nothing more).
 */
export function requestRefund(command: RequestRefund, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { refund } = command;
  if (invoice.payments.some((p) => p.refundIds.includes(refund.refundId) || p.pendingRefunds.some((r) => r.refundId === refund.refundId))) return [];
  const payment = refundablePayment(state, refund.paymentId, refund.amount, refund.reason);
  if (!payment.stripePaymentIntentId) throw new ConflictError('Only a card payment taken through the provider is refunded in two steps');
  const { customerId } = invoice.fields;
  return [{ type: 'payment_refund_requested', data: { ...refund, invoiceId: command.invoiceId, customerId, method: payment.method } }];
}

export function cancelInvoice(command: CancelInvoice, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { status } = invoice.fields;
  if (status === 'cancelled') return [];
  if (status === 'paid') throw new ConflictError('A paid invoice cannot be cancelled');
  if (status === 'written_off') throw new ConflictError('A written-off invoice cannot be cancelled');
  if (invoice.payments.length > 0) throw new ConflictError('An invoice with payments cannot be cancelled; write off what is still owed instead');
  return [{ type: 'invoice_cancelled', data: { invoiceId: command.invoiceId, reason: command.reason ?? null } }];
}

export function writeOffInvoice(command: WriteOffInvoice, state: InvoiceState): DomainEvent[] {
  const invoice = existing(state);
  const { status, customerId } = invoice.fields;
  if (status === 'written_off') return [];
  if (status !== 'sent' && status !== 'overdue') throw new ConflictError(`Only an open invoice can be written off; this one is ${status}`);
  if (command.reason.trim() === '') throw new DomainRuleError('reason: is required', 'reason');
  return [{ type: 'invoice_written_off', data: { invoiceId: command.invoiceId, customerId, amount: openBalance(invoice), reason: command.reason } }];
}

export function addInvoiceLine(command: AddInvoiceLine, state: InvoiceState): DomainEvent[] {
  const { fields } = existing(state);
  const { line } = command;
  if (line.kind === 'late_fee' && fields.lines.some((l) => l.kind === 'late_fee')) return [];
  if (fields.status !== 'sent' && fields.status !== 'overdue') throw new ConflictError(`Only an open invoice takes another line; this one is ${fields.status}`);
  const amount = fromCents(toCents(fields.amount) + toCents(line.amount));
  if (toCents(amount) <= 0n) throw new DomainRuleError('The invoice would come to 0.00 or less', 'amount');
  const added: DomainEvent[] = [{ type: 'invoice_line_added', data: { invoiceId: command.invoiceId, customerId: fields.customerId, line, amount } }];
  if (!command.tax) return added;
  const withTax = fromCents(toCents(amount) + toCents(command.tax.amount));
  return [...added, { type: 'invoice_line_added', data: { invoiceId: command.invoiceId, customerId: fields.customerId, line: command.tax, amount: withTax } }];
}

/**
 * A customer's standing follows their invoices: an active customer with an overdue invoice is
 * overdue, and an overdue customer with none left is active again. Other statuses (inactive,
 * terminated) are a manager's decision and stay. Returns the new status, or null for no change.
 */
export function customerStandingAfterBilling(status: CustomerStatus, hasOverdueInvoice: boolean): CustomerStatus | null {
  if (hasOverdueInvoice && status === 'active') return 'overdue';
  if (!hasOverdueInvoice && status === 'overdue') return 'active';
  return null;
}

export function decideInvoice(command: InvoiceCommand, state: InvoiceState): DomainEvent[] {
  switch (command.type) {
    case 'GenerateInvoice':
      return generateInvoice(command, state);
    case 'SendInvoice':
      return sendInvoice(command, state);
    case 'MarkInvoiceOverdue':
      return markInvoiceOverdue(command, state);
    case 'RecordPayment':
      return recordPayment(command, state);
    case 'CancelInvoice':
      return cancelInvoice(command, state);
    case 'RecordRefund':
      return recordRefund(command, state);
    case 'AddInvoiceLine':
      return addInvoiceLine(command, state);
    case 'WriteOffInvoice':
      return writeOffInvoice(command, state);
    case 'RefundPayment':
      return refundPayment(command, state);
    case 'RequestRefund':
      return requestRefund(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
    }
  }
}
