import { accessReaction } from './access.ts';
import { delinquencyClearingReaction } from './delinquency.ts';
import { messagesReaction } from './messages.ts';
import type { Reaction } from './reaction.ts';

/**
 * Every reaction the projector runs after the read model, each with its own checkpoint. Order
 * does not matter: each follows the log on its own.
 */
export const reactions: Reaction[] = [
  // delinquency
  delinquencyClearingReaction,
  // access
  accessReaction,
  // messages
  messagesReaction,
  // autopay
  // rent changes
];
