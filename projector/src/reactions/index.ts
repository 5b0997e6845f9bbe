import { accessReaction } from './access.ts';
import { delinquencyClearingReaction } from './delinquency.ts';
import { messagesReaction } from './messages.ts';
import type { Reaction } from './reaction.ts';
import { receiptRecoveryReaction } from './receipts.ts';

/**
 * Every reaction the projector runs after the read model, each with its own checkpoint. Order
 * does not matter: each follows the log on its own.
 */
export const reactions: Reaction[] = [
  // A payment, credit or write-off that settles a delinquent renter clears their delinquency.
  delinquencyClearingReaction,
  // Gate codes at move-in and move-out; a lockout overlocks and suspends, a clear restores.
  accessReaction,
  // Every message to a renter, into the outbox.
  messagesReaction,
  // A payment over several invoices whose request stopped half-way is finished.
  receiptRecoveryReaction,
];
