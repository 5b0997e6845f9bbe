import type { CommandContext } from '@storage/domain/commands/handle';
import { finishReceipt } from '@storage/domain/payments/desk';
import type { Reaction } from './reaction.ts';

/**
 * The recovery of payments over several invoices (at the desk, or toward the balance in the
 * portal): a receipt's plan is recorded on the account before its invoices are paid, so a request
 * that stopped between its steps left money on no invoice and in no ledger. Each plan is finished
 * here as it is seen, alongside the request: both pay under the ids the plan derives, so whichever
 * is first records each payment and the other records nothing.
 */
export const receiptRecoveryReaction: Reaction = {
  name: 'receipts',
  types: ['desk_payment_received', 'portal_payment_received'],
  async react(event, deps) {
    if (event.type !== 'desk_payment_received' && event.type !== 'portal_payment_received') return;
    const { customerId, receiptId } = event.data;
    const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: event.metadata.correlationId, now: deps.now };
    await finishReceipt(ctx, customerId, receiptId, event.type === 'desk_payment_received' ? 'desk' : 'portal');
  },
};
