import { creditRefundRefusal } from '@storage/contracts/billing';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { DomainRuleError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, type LoadedAggregate } from '../commands/handle.ts';
import { type AccountState, accountAggregate } from './account.ts';

/** Puts money on the renter's account (once per creditId): an overpayment (receiptId) or a credit staff give with a reason. */
export async function creditAccount(
  ctx: CommandContext,
  customerId: string,
  credit: { creditId: string; amount: string; reason: string; receiptId: string | null },
) {
  if (toCents(credit.amount) <= 0n) throw new DomainRuleError('The credit must be more than 0.00', 'amount');
  if (credit.reason.trim() === '') throw new DomainRuleError('reason: is required', 'reason');
  return handleCommand(ctx, streams.account(customerId), accountAggregate, (state) =>
    state.creditIds.has(credit.creditId) ? [] : [{ type: 'account_credited', data: { customerId, ...credit } }],
  );
}

/**
 * Takes up to `wanted` of the account's credit for an invoice, once per applicationId: a repeat
 * answers what the first took. Returns the amount taken ('0.00' when there is no credit).
 */
export async function takeCredit(
  ctx: CommandContext,
  customerId: string,
  applicationId: string,
  invoiceId: string,
  wanted: string,
  /** The account as the caller read it a moment ago; a lost race reads it afresh. */
  known?: LoadedAggregate<AccountState>,
): Promise<string> {
  const result = await handleCommand(
    ctx,
    streams.account(customerId),
    accountAggregate,
    (state) => {
      if (state.applications.has(applicationId)) return [];
      const amount = state.balanceCents < toCents(wanted) ? state.balanceCents : toCents(wanted);
      if (amount <= 0n) return [];
      return [{ type: 'account_credit_applied', data: { customerId, applicationId, invoiceId, amount: fromCents(amount) } }];
    },
    known,
  );
  return result.state.applications.get(applicationId) ?? '0.00';
}

/** Hands credit on the account back to the renter (once per refundId): never more than the account holds. */
export async function refundCredit(
  ctx: CommandContext,
  customerId: string,
  refund: { refundId: string; amount: string; method: DeskPaymentMethod; reference: string | null; reason: string },
) {
  if (toCents(refund.amount) <= 0n) throw new DomainRuleError('amount: must be more than 0.00', 'amount');
  if (refund.reason.trim() === '') throw new DomainRuleError('reason: is required', 'reason');
  return handleCommand(ctx, streams.account(customerId), accountAggregate, (state) => {
    if (state.refundIds.has(refund.refundId)) return [];
    const refusal = creditRefundRefusal(refund.amount, fromCents(state.balanceCents));
    if (refusal) throw new DomainRuleError(`amount: ${refusal}`, 'amount');
    return [{ type: 'account_credit_refunded', data: { customerId, ...refund, reason: refund.reason.trim() } }];
  });
}
