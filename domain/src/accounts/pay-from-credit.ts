import { streams } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import type { Position } from '@storage/eventstore/port';
import { derivedId } from '../commands/derived-id.ts';
import { ConcurrencyExhaustedError, ConflictError, DomainRuleError } from '../commands/errors.ts';
import { type CommandContext, type LoadedAggregate, loadAggregate } from '../commands/handle.ts';
import { recordPayment } from '../invoices/commands.ts';
import { type InvoiceState, invoiceAggregate, openBalance } from '../invoices/invoice.ts';
import type { AccountState } from './account.ts';
import { creditAccount, takeCredit } from './commands.ts';

/**
 * Pays an open invoice from the renter's account credit, as far as it goes, once per invoice: the
 * credit is taken on the account first (named by the invoice), then paid on the invoice under the
 * same id, so a retry after a crash between the two finishes the payment and takes nothing twice.
 * Credit taken for an invoice that no longer needs it (paid meanwhile) goes back on the account.
 */
export async function payFromCredit(
  ctx: CommandContext,
  invoiceId: string,
  known?: InvoiceState,
  knownAccount?: LoadedAggregate<AccountState>,
): Promise<Position | null> {
  // `known`: the invoice as the caller has just written or read it (the billing run); a stale one
  // only means a payment the command then refuses, and the credit goes back.
  const invoice = known ?? (await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate)).state;
  if (invoice.status !== 'current') return null;
  const applicationId = derivedId('account-credit', invoiceId);
  const already = invoice.payments.some((p) => p.paymentId === applicationId);
  if (already || (invoice.fields.status !== 'sent' && invoice.fields.status !== 'overdue')) return null;
  const { customerId, invoiceNumber } = invoice.fields;
  const taken = await takeCredit(ctx, customerId, applicationId, invoiceId, openBalance(invoice), knownAccount);
  if (toCents(taken) <= 0n) return null;
  try {
    const paid = await recordPayment(ctx, invoiceId, { amount: taken, method: 'account_credit', stripePaymentIntentId: null }, applicationId);
    return paid.position;
  } catch (error) {
    // A race lost every time decided nothing: the invoice may still take the credit, so it is not
    // given back (a retry then pays it under the same id).
    if (error instanceof ConcurrencyExhaustedError) throw error;
    if (!(error instanceof ConflictError || error instanceof DomainRuleError)) throw error;
    const back = await creditAccount(ctx, customerId, {
      creditId: derivedId('account-credit-returned', applicationId),
      amount: taken,
      reason: `Credit not needed on invoice ${invoiceNumber}`,
      receiptId: null,
    });
    return back.position;
  }
}
