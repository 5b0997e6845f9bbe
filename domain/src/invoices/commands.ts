import { randomUUID } from 'node:crypto';
import { type InvoiceLine, singleLine } from '@storage/contracts/billing';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { anyOverdue, listInvoiceOnAccount, renterInvoices } from '../accounts/receivables.ts';
import { customerToday } from '../billing/settings.ts';
import { derivedId } from '../commands/derived-id.ts';
import { DomainRuleError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { customerAggregate } from '../customers/customer.ts';
import { leaseAggregate } from '../leases/lease.ts';
import {
  type CardRefund,
  customerStandingAfterBilling,
  decideInvoice,
  type InvoiceCommand,
  type PaidAtCreation,
  type ReceivedPayment,
  type RequestRefund,
  type StaffRefund,
  statusAtCreation,
} from './businessLogic.ts';
import { type InvoiceFields, invoiceAggregate } from './invoice.ts';

function decide(ctx: CommandContext, command: InvoiceCommand) {
  return handleCommand(ctx, streams.invoice(command.invoiceId), invoiceAggregate, (state) => decideInvoice(command, state));
}

function today(ctx: CommandContext): string {
  return ctx.now.toISOString().slice(0, 10);
}

/**
 * An invoice's details; without lines, its amount is one line (see `singleLine`). Created paid, it
 * says how (`payment`); cancelled or written off, why (`reason`).
 */
export type NewInvoice = Omit<InvoiceFields, 'lines'> & {
  lines?: InvoiceFields['lines'];
  payment?: Pick<PaidAtCreation, 'method' | 'reference'> | null;
  reason?: string | null;
};

/**
 * Generates an invoice with what its status records (see the decision's `generateInvoice`): a
 * payment dated the renter's today at their facility, a void or a write-off; one created overdue
 * makes its renter overdue, as the billing day does when an invoice goes overdue.
 */
export async function generateInvoice(ctx: CommandContext, details: NewInvoice, invoiceId: string = randomUUID()) {
  const { payment: paidBy = null, reason = null, ...invoice } = details;
  const fields: InvoiceFields = { ...invoice, lines: invoice.lines ?? [singleLine(invoice)] };
  // Before anything is written (the invoice number's key, the account's listing): a bad request writes nothing.
  statusAtCreation(fields.status, paidBy, reason);
  // The ids come in the request body: one that names nothing is a mistake in the request (400).
  const { state: customer } = await loadAggregate(ctx.store, streams.customer(fields.customerId), customerAggregate);
  if (customer.status !== 'current') throw new DomainRuleError('customerId: Customer not found', 'customerId');
  if (fields.leaseId !== null) {
    const { state: lease } = await loadAggregate(ctx.store, streams.lease(fields.leaseId), leaseAggregate);
    if (lease.status === 'none' || lease.status === 'abandoned') throw new DomainRuleError('leaseId: Lease not found', 'leaseId');
    if (lease.terms.customerId !== fields.customerId) throw new DomainRuleError('The lease belongs to another customer', 'leaseId');
  }
  const key: UniqueKey = {
    kind: 'invoice-number',
    value: fields.invoiceNumber,
    ownerStream: streams.invoice(invoiceId),
    field: 'invoiceNumber',
    takenMessage: `An invoice numbered ${fields.invoiceNumber} already exists`,
  };
  // The payment is named by the invoice, so the decision is the same however often it is made.
  const payment = paidBy && {
    ...paidBy,
    paymentId: derivedId('paid-at-creation', invoiceId),
    paidDate: await customerToday(ctx.store, fields.customerId, ctx.now),
  };
  const generated = await withUniqueKey(ctx, key, async () => {
    // Listed on the account first: a payment decided between the two appends already sees it.
    await listInvoiceOnAccount(ctx, fields.customerId, invoiceId);
    return decide(ctx, { type: 'GenerateInvoice', invoiceId, fields, payment, reason });
  });
  if (fields.status !== 'overdue') return generated;
  const standing = await markCustomerOverdue(ctx, fields.customerId, `Invoice ${fields.invoiceNumber} is overdue`);
  return { ...generated, position: standing.position ?? generated.position };
}

/** Sends a draft, dated `on` (the billing engine's day), by default the renter's today at their facility. */
export async function sendInvoice(ctx: CommandContext, invoiceId: string, on?: string) {
  let sentOn = on;
  if (sentOn === undefined) {
    const { state } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
    sentOn = state.status === 'none' ? today(ctx) : await customerToday(ctx.store, state.fields.customerId, ctx.now);
  }
  return decide(ctx, { type: 'SendInvoice', invoiceId, sentOn });
}

/** `on`: the facility's date (the billing engine's); by default today in UTC. */
export async function markInvoiceOverdue(ctx: CommandContext, invoiceId: string, on: string = today(ctx)) {
  return decide(ctx, { type: 'MarkInvoiceOverdue', invoiceId, today: on });
}

/** Adds a line to an open invoice (the late fee: once per invoice). */
/** Adds a line to an open invoice, with its sales tax line when it is taxed (one append: never the line without its tax). */
export async function addInvoiceLine(ctx: CommandContext, invoiceId: string, line: InvoiceLine, tax: InvoiceLine | null = null) {
  return decide(ctx, { type: 'AddInvoiceLine', invoiceId, line, tax });
}

/**
 * Records a payment received today, dated in the zone of the renter's facility (a payment at
 * 9 pm in Los Angeles belongs to that day's deposit, not to tomorrow's in UTC);
 * `stripePaymentIntentId` makes a provider's repeated report harmless.
 */
export async function recordPayment(
  ctx: CommandContext,
  invoiceId: string,
  payment: Omit<ReceivedPayment, 'paymentId' | 'paidDate'>,
  paymentId: string = randomUUID(),
) {
  const { state } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  const paidDate = state.status === 'none' ? today(ctx) : await customerToday(ctx.store, state.fields.customerId, ctx.now);
  return decide(ctx, { type: 'RecordPayment', invoiceId, payment: { ...payment, paymentId, paidDate } });
}

/** Records a refund the provider made of a card charge the invoice could not take; once per intent. */
export async function recordRefund(ctx: CommandContext, invoiceId: string, refund: Omit<CardRefund, 'paymentId'>, paymentId: string = randomUUID()) {
  return decide(ctx, { type: 'RecordRefund', invoiceId, refund: { ...refund, paymentId } });
}

/** Records a card refund staff decided, before the provider is asked; once per refund id. */
export async function requestStaffRefund(ctx: CommandContext, invoiceId: string, refund: RequestRefund['refund']) {
  return decide(ctx, { type: 'RequestRefund', invoiceId, refund });
}

/** Records a refund staff gave of a payment (a card one already made through the provider); once per refund id. */
export async function recordStaffRefund(ctx: CommandContext, invoiceId: string, refund: StaffRefund) {
  return decide(ctx, { type: 'RefundPayment', invoiceId, refund });
}

export async function cancelInvoice(ctx: CommandContext, invoiceId: string, reason: string | null = null) {
  return decide(ctx, { type: 'CancelInvoice', invoiceId, reason });
}

/** What is still owed on the invoice becomes bad debt, with the reason staff gave. */
export async function writeOffInvoice(ctx: CommandContext, invoiceId: string, reason: string) {
  return decide(ctx, { type: 'WriteOffInvoice', invoiceId, reason });
}

/**
 * Brings the customer's standing in line with their invoices (see `customerStandingAfterBilling`),
 * on fresh state, with an event of its own (customer_standing_changed) that says why.
 */
function settleCustomerStanding(ctx: CommandContext, customerId: string, hasOverdueInvoice: boolean, reason: string) {
  return handleCommand(ctx, streams.customer(customerId), customerAggregate, (customer): DomainEvent[] => {
    if (customer.status !== 'current') return [];
    const status = customerStandingAfterBilling(customer.fields.status, hasOverdueInvoice);
    if (status !== 'overdue' && status !== 'active') return [];
    return [{ type: 'customer_standing_changed', data: { customerId, status, reason } }];
  });
}

/** A customer with an overdue invoice is overdue too; `reason` names the invoice. */
export async function markCustomerOverdue(ctx: CommandContext, customerId: string, reason = 'An invoice is overdue') {
  return settleCustomerStanding(ctx, customerId, true, reason);
}

/**
 * Every path that records a payment calls this after it: a customer left with no overdue invoice
 * is active again. The read model names the candidates; each one's own stream has the last word,
 * so an invoice paid a moment ago that the read model still shows overdue does not count.
 * Null when the customer still has an overdue invoice.
 */
export async function afterPaymentRecorded(ctx: CommandContext, customerId: string) {
  if (anyOverdue(await renterInvoices(ctx, customerId))) return null;
  return settleCustomerStanding(ctx, customerId, false, 'No overdue invoice left');
}
