import { streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { DomainRuleError } from '../commands/errors.ts';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { accountAggregate } from './account.ts';

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
export async function takeCredit(ctx: CommandContext, customerId: string, applicationId: string, invoiceId: string, wanted: string): Promise<string> {
  const result = await handleCommand(ctx, streams.account(customerId), accountAggregate, (state) => {
    if (state.applications.has(applicationId)) return [];
    const amount = state.balanceCents < toCents(wanted) ? state.balanceCents : toCents(wanted);
    if (amount <= 0n) return [];
    return [{ type: 'account_credit_applied', data: { customerId, applicationId, invoiceId, amount: fromCents(amount) } }];
  });
  return result.state.applications.get(applicationId) ?? '0.00';
}
