import { randomUUID } from 'node:crypto';
import type { DeskPaymentPlan } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { type EventStore, type Position, readStreams } from '@storage/eventstore/port';
import { accountAggregate, type ReceiptPlan } from '../accounts/account.ts';
import { creditAccount } from '../accounts/commands.ts';
import { payFromCredit } from '../accounts/pay-from-credit.ts';
import { type CurrentInvoice, isOpen, openInvoices, renterInvoices } from '../accounts/receivables.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConcurrencyExhaustedError, ConflictError, DomainRuleError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { currentCustomer, requireCurrentCustomer } from '../customers/commands.ts';
import { customerAggregate } from '../customers/customer.ts';
import { afterPaymentRecorded, recordPayment } from '../invoices/commands.ts';
import { invoiceAggregate, openBalance } from '../invoices/invoice.ts';
import { allocatePayment } from './allocation.ts';

// Payments staff take at the desk: cash, a check (its number), a card at the desk, a bank transfer.
// One payment pays the renter's open invoices oldest first (or the ones staff choose, in their
// order), part of one when it runs out; what is left over is credit on the account, which the next
// invoice uses. The receipt's plan is recorded on the renter's account first (desk_payment_received),
// then carried out invoice by invoice under ids derived from the receipt: a repeat (the same
// receipt) finishes the plan and records nothing twice. A portal card payment of an amount toward
// the whole balance is planned and carried out the same way (recordPortalPayment).

export interface DeskPayment {
  customerId: string;
  amount: string;
  method: DeskPaymentMethod;
  /** A check number or a transfer's reference. */
  reference: string | null;
  /** The invoices to pay, in this order; absent: every open invoice, oldest due first. */
  invoiceIds?: string[];
}

export interface DeskReceipt {
  receiptId: string;
  applied: { invoiceId: string; invoiceNumber: string; amount: string }[];
  /** Left over after every invoice it could pay: credit on the renter's account. */
  credited: string;
  position: Position | null;
  /** True when this call recorded the plan; false when an earlier call (a repeat, a racing report) had. */
  planned: boolean;
}

type Spread = Pick<ReceiptPlan, 'allocations' | 'credit'>;

/**
 * The invoices a payment pays, in the order it pays them (the chosen ones in their order, else
 * every open one, oldest due first), each as its own stream has it.
 */
async function payableInvoices(from: { store: EventStore }, customerId: string, invoiceIds?: readonly string[]): Promise<CurrentInvoice[]> {
  return invoiceIds === undefined ? openInvoices(await renterInvoices(from, customerId)) : chosenInvoices(from, customerId, invoiceIds);
}

const owed = (invoices: readonly CurrentInvoice[]) => invoices.map((invoice) => ({ invoiceId: invoice.invoiceId, openBalance: openBalance(invoice) }));

/**
 * How an amount spreads over the renter's invoices, each one's open balance read from its own
 * stream; the rest is credit. The one place that decides what a payment over several invoices
 * covers, at the desk and in the portal, and what Take Payment shows before it is taken.
 */
async function spread(from: { store: EventStore }, customerId: string, total: string, invoiceIds?: readonly string[]): Promise<Spread> {
  return allocatePayment(total, owed(await payableInvoices(from, customerId, invoiceIds)));
}

/** The invoices staff chose, in their order: each must be the renter's and open. */
async function chosenInvoices(from: { store: EventStore }, customerId: string, invoiceIds: readonly string[]): Promise<CurrentInvoice[]> {
  const chosen: CurrentInvoice[] = [];
  for (const invoiceId of invoiceIds) {
    const { state: invoice } = await loadAggregate(from.store, streams.invoice(invoiceId), invoiceAggregate);
    if (invoice.status !== 'current' || invoice.fields.customerId !== customerId) {
      throw new DomainRuleError("invoiceIds: an invoice is not one of this customer's", 'invoiceIds');
    }
    if (!isOpen(invoice)) throw new DomainRuleError(`invoiceIds: invoice ${invoice.fields.invoiceNumber} is ${invoice.fields.status}, not open`, 'invoiceIds');
    chosen.push(invoice);
  }
  return chosen;
}

/**
 * What a desk payment of `amount` would pay were it taken now (recordDeskPayment, without
 * `invoiceIds`), decided as it is on the renter's streams; nothing is written. What the renter's
 * invoices owe may change before the payment is taken: the receipt then says what it paid.
 */
export async function planDeskPayment(from: { store: EventStore }, customerId: string, amount: string): Promise<DeskPaymentPlan> {
  if (toCents(amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  currentCustomer(await loadAggregate(from.store, streams.customer(customerId), customerAggregate));
  const invoices = await payableInvoices(from, customerId);
  const { allocations, credit } = allocatePayment(amount, owed(invoices));
  const byId = new Map(invoices.map((invoice) => [invoice.invoiceId, invoice]));
  return {
    applied: allocations.map(({ invoiceId, amount: applied }) => {
      const invoice = byId.get(invoiceId)!;
      const open = openBalance(invoice);
      return { invoiceId, invoiceNumber: invoice.fields.invoiceNumber, amount: applied, openBalance: open, paysInFull: toCents(applied) === toCents(open) };
    }),
    credited: credit,
  };
}

/**
 * Records the receipt's plan on the renter's account (once: the account stream's revision makes
 * a racing repeat find the first plan), then carries it out invoice by invoice under payment ids
 * derived from the receipt, so a repeat, a race or a run after a crash between two steps
 * finishes the one plan and records nothing twice. `kind` keeps desk and portal ids apart.
 */
async function carryOutReceipt(
  ctx: CommandContext,
  customerId: string,
  receiptId: string,
  kind: 'desk' | 'portal',
  planned: () => Promise<DomainEvent>,
): Promise<DeskReceipt> {
  const { state: before } = await loadAggregate(ctx.store, streams.account(customerId), accountAggregate);
  const plan = before.receipts.has(receiptId) ? null : await planned();
  const recorded = await handleCommand(ctx, streams.account(customerId), accountAggregate, (state): DomainEvent[] =>
    state.receipts.has(receiptId) || !plan ? [] : [plan],
  );
  const receipt = recorded.state.receipts.get(receiptId)!;
  const answer: DeskReceipt = { receiptId, applied: [], credited: receipt.credit, position: recorded.position, planned: recorded.events.length > 0 };
  let recordedElsewhere = false;
  for (const allocation of receipt.allocations) {
    const paymentId = derivedId(`${kind}-payment`, receiptId, allocation.invoiceId);
    const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(allocation.invoiceId), invoiceAggregate);
    const invoiceNumber = invoice.status === 'current' ? invoice.fields.invoiceNumber : '';
    try {
      const paid = await recordPayment(
        ctx,
        allocation.invoiceId,
        {
          amount: allocation.amount,
          method: receipt.method,
          stripePaymentIntentId: receipt.stripePaymentIntentId,
          reference: receipt.reference,
          receiptId,
        },
        paymentId,
      );
      answer.position = paid.position ?? answer.position;
      if (paid.position === null) recordedElsewhere = true;
      answer.applied.push({ invoiceId: allocation.invoiceId, invoiceNumber, amount: allocation.amount });
    } catch (error) {
      // A race lost every time decided nothing: the invoice may still take this part, so it is not
      // credited (a repeat of the receipt would then pay it too); the repeat finishes the plan.
      if (error instanceof ConcurrencyExhaustedError) throw error;
      if (!(error instanceof ConflictError || error instanceof DomainRuleError)) throw error;
      // Paid or closed by something else since the plan: this part of the money is credit instead.
      const credited = await creditAccount(ctx, customerId, {
        creditId: derivedId(`${kind}-payment-unapplied`, receiptId, allocation.invoiceId),
        amount: allocation.amount,
        reason: `Invoice ${invoiceNumber} no longer needed it`,
        receiptId,
      });
      answer.position = credited.position ?? answer.position;
      if (credited.position === null) recordedElsewhere = true;
      answer.credited = fromCents(toCents(answer.credited) + toCents(allocation.amount));
    }
  }
  const standing = await afterPaymentRecorded(ctx, customerId);
  answer.position = standing?.position ?? answer.position;
  // A step another finisher (an earlier attempt, the recovery) recorded has no position here: the
  // answer then waits for everything written so far, so the screens show the receipt whole.
  if (recordedElsewhere) answer.position = (await ctx.store.newestPosition()) ?? answer.position;
  return answer;
}

/**
 * Finishes a receipt whose plan is on the renter's account: what a request that stopped between its
 * steps (a crash, a killed process) left unpaid is paid, or credited when its invoice no longer
 * takes it. A finished receipt records nothing more. Null when the account has no such receipt,
 * or it was finished already.
 */
export async function finishReceipt(ctx: CommandContext, customerId: string, receiptId: string, kind: 'desk' | 'portal'): Promise<DeskReceipt | null> {
  const { state } = await loadAggregate(ctx.store, streams.account(customerId), accountAggregate);
  const receipt = state.receipts.get(receiptId);
  if (!receipt) return null;
  // Nearly always the request finished it already: its invoices, read at once, say so, and only
  // the renter's standing is looked at again (the recovery runs on every receipt).
  const invoices = await readStreams(
    ctx.store,
    receipt.allocations.map((a) => streams.invoice(a.invoiceId)),
  );
  const finished = receipt.allocations.every((allocation) => {
    const invoice = aggregateFrom(invoices.get(streams.invoice(allocation.invoiceId)) ?? [], invoiceAggregate).state;
    const paymentId = derivedId(`${kind}-payment`, receiptId, allocation.invoiceId);
    const paid = invoice.status === 'current' && invoice.payments.some((p) => p.paymentId === paymentId);
    return paid || state.creditIds.has(derivedId(`${kind}-payment-unapplied`, receiptId, allocation.invoiceId));
  });
  if (finished) {
    await afterPaymentRecorded(ctx, customerId);
    return null;
  }
  return carryOutReceipt(ctx, customerId, receiptId, kind, async () => {
    throw new Error(`receipt ${receiptId} has no plan to finish`);
  });
}

/** Records a desk payment; `receiptId` (from the request's idempotency key) makes a repeat finish it, never pay twice. */
export async function recordDeskPayment(ctx: CommandContext, payment: DeskPayment, receiptId: string = randomUUID()): Promise<DeskReceipt> {
  if (toCents(payment.amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  await requireCurrentCustomer(ctx, payment.customerId);
  const { customerId, amount, method, reference } = payment;
  return carryOutReceipt(ctx, customerId, receiptId, 'desk', async () => ({
    type: 'desk_payment_received',
    data: { customerId, receiptId, amount, method, reference, ...(await spread(ctx, customerId, amount, payment.invoiceIds)) },
  }));
}

/** A card charge the provider reports succeeded, for an amount the renter chose toward their balance (see portal-payment.ts). */
export interface PortalCharge {
  paymentIntentId: string;
  customerId: string;
  amount: string;
}

/**
 * Records a portal card payment of an amount toward the whole balance, spread over the open
 * invoices oldest first exactly as a desk payment is; once per intent, whatever the number of
 * reports. The plan is made when the charge is first reported, from the invoices open then: if
 * the balance dropped since the renter chose the amount (paid at the desk meanwhile), the surplus
 * becomes credit on the account, which the next invoice uses: never lost, never silently refunded.
 */
export async function recordPortalPayment(ctx: CommandContext, charge: PortalCharge): Promise<DeskReceipt> {
  const { customerId, amount, paymentIntentId } = charge;
  if (toCents(amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  const receiptId = derivedId('portal-payment', paymentIntentId);
  return carryOutReceipt(ctx, customerId, receiptId, 'portal', async () => ({
    type: 'portal_payment_received',
    data: { customerId, receiptId, amount, stripePaymentIntentId: paymentIntentId, ...(await spread(ctx, customerId, amount)) },
  }));
}

/** A credit staff give, with a reason: it pays the renter's open invoices, oldest first, and the rest waits for the next one. */
export async function giveCredit(ctx: CommandContext, customerId: string, amount: string, reason: string, creditId: string = randomUUID()) {
  await requireCurrentCustomer(ctx, customerId);
  const credited = await creditAccount(ctx, customerId, { creditId, amount, reason, receiptId: null });
  let position = credited.position;
  for (const invoice of openInvoices(await renterInvoices(ctx, customerId, credited.state))) {
    position = (await payFromCredit(ctx, invoice.invoiceId, invoice)) ?? position;
  }
  const standing = await afterPaymentRecorded(ctx, customerId);
  return { position: standing?.position ?? position };
}
