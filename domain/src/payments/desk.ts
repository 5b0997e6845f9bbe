import { randomUUID } from 'node:crypto';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import type { Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { accountAggregate, type DeskReceiptPlan } from '../accounts/account.ts';
import { creditAccount } from '../accounts/commands.ts';
import { payFromCredit } from '../accounts/pay-from-credit.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConflictError, DomainRuleError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { requireCurrentCustomer } from '../customers/commands.ts';
import { afterPaymentRecorded, recordPayment } from '../invoices/commands.ts';
import { invoiceAggregate, openBalance } from '../invoices/invoice.ts';

// Payments staff take at the desk: cash, a check (its number), a card at the desk, a bank transfer.
// One payment pays the renter's open invoices oldest first (or the ones staff choose, in their
// order), part of one when it runs out; what is left over is credit on the account, which the next
// invoice uses. The receipt's plan is recorded on the renter's account first (desk_payment_received),
// then carried out invoice by invoice under ids derived from the receipt: a repeat (the same
// receipt) finishes the plan and records nothing twice.

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
}

const IdRow = z.object({ id: z.string() });

async function openInvoicesOf(pool: DatabasePool, customerId: string): Promise<readonly string[]> {
  return pool.anyFirst(sql.type(IdRow)`
    SELECT id::text FROM invoices WHERE customer_id = ${customerId} AND status IN ('sent', 'overdue') ORDER BY due_date, invoice_number, id`);
}

/** How the payment spreads over the invoices, each one's open balance read from its own stream. */
async function plan(ctx: CommandContext, pool: DatabasePool, payment: DeskPayment, receiptId: string): Promise<DeskReceiptPlan> {
  const chosen = payment.invoiceIds !== undefined;
  const allocations: DeskReceiptPlan['allocations'] = [];
  let left = toCents(payment.amount);
  for (const invoiceId of payment.invoiceIds ?? (await openInvoicesOf(pool, payment.customerId))) {
    if (left <= 0n) break;
    const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
    if (invoice.status !== 'current' || invoice.fields.customerId !== payment.customerId) {
      if (chosen) throw new DomainRuleError("invoiceIds: an invoice is not one of this customer's", 'invoiceIds');
      continue;
    }
    if (invoice.fields.status !== 'sent' && invoice.fields.status !== 'overdue') {
      if (chosen) throw new DomainRuleError(`invoiceIds: invoice ${invoice.fields.invoiceNumber} is ${invoice.fields.status}, not open`, 'invoiceIds');
      continue;
    }
    const open = toCents(openBalance(invoice));
    const amount = open < left ? open : left;
    if (amount <= 0n) continue;
    allocations.push({ invoiceId, amount: fromCents(amount) });
    left -= amount;
  }
  return { receiptId, amount: payment.amount, method: payment.method, reference: payment.reference, allocations, credit: fromCents(left) };
}

/** Records a desk payment; `receiptId` (from the request's idempotency key) makes a repeat finish it, never pay twice. */
export async function recordDeskPayment(ctx: CommandContext, pool: DatabasePool, payment: DeskPayment, receiptId: string = randomUUID()): Promise<DeskReceipt> {
  if (toCents(payment.amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  await requireCurrentCustomer(ctx, payment.customerId);
  const { customerId } = payment;
  const { state: before } = await loadAggregate(ctx.store, streams.account(customerId), accountAggregate);
  const planned = before.receipts.get(receiptId) ?? (await plan(ctx, pool, payment, receiptId));
  const recorded = await handleCommand(ctx, streams.account(customerId), accountAggregate, (state): DomainEvent[] =>
    state.receipts.has(receiptId) ? [] : [{ type: 'desk_payment_received', data: { customerId, ...planned } }],
  );
  const receipt = recorded.state.receipts.get(receiptId)!;
  const answer: DeskReceipt = { receiptId, applied: [], credited: receipt.credit, position: recorded.position };
  for (const allocation of receipt.allocations) {
    const paymentId = derivedId('desk-payment', receiptId, allocation.invoiceId);
    const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(allocation.invoiceId), invoiceAggregate);
    const invoiceNumber = invoice.status === 'current' ? invoice.fields.invoiceNumber : '';
    try {
      const paid = await recordPayment(
        ctx,
        allocation.invoiceId,
        { amount: allocation.amount, method: receipt.method, stripePaymentIntentId: null, reference: receipt.reference, receiptId },
        paymentId,
      );
      answer.position = paid.position ?? answer.position;
      answer.applied.push({ invoiceId: allocation.invoiceId, invoiceNumber, amount: allocation.amount });
    } catch (error) {
      if (!(error instanceof ConflictError || error instanceof DomainRuleError)) throw error;
      // Paid or closed by something else since the plan: this part of the money is credit instead.
      const credited = await creditAccount(ctx, customerId, {
        creditId: derivedId('desk-payment-unapplied', receiptId, allocation.invoiceId),
        amount: allocation.amount,
        reason: `Invoice ${invoiceNumber} no longer needed it`,
        receiptId,
      });
      answer.position = credited.position ?? answer.position;
      answer.credited = fromCents(toCents(answer.credited) + toCents(allocation.amount));
    }
  }
  const standing = await afterPaymentRecorded(ctx, pool, customerId);
  answer.position = standing?.position ?? answer.position;
  return answer;
}

/** A credit staff give, with a reason: it pays the renter's open invoices, oldest first, and the rest waits for the next one. */
export async function giveCredit(ctx: CommandContext, pool: DatabasePool, customerId: string, amount: string, reason: string, creditId: string = randomUUID()) {
  await requireCurrentCustomer(ctx, customerId);
  const credited = await creditAccount(ctx, customerId, { creditId, amount, reason, receiptId: null });
  let position = credited.position;
  for (const invoiceId of await openInvoicesOf(pool, customerId)) position = (await payFromCredit(ctx, invoiceId)) ?? position;
  const standing = await afterPaymentRecorded(ctx, pool, customerId);
  return { position: standing?.position ?? position };
}
