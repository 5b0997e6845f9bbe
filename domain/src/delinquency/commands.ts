import { type DomainEvent, streams } from '@storage/contracts/events';
import { type Position, WrongExpectedRevisionError } from '@storage/eventstore/port';
import { customerToday } from '../billing/settings.ts';
import { ConcurrencyExhaustedError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, envelope, handleCommand, loadAggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { decidePause, decideResume } from './businessLogic.ts';
import { type DelinquencyState, delinquencyAggregate } from './delinquency.ts';

async function knownCustomer(ctx: CommandContext, customerId: string) {
  const { state } = await loadAggregate(ctx.store, streams.customer(customerId), customerAggregate);
  if (state.status === 'none') throw new NotFoundError('Customer not found');
}

/** Staff pause a renter's schedule until a date (after today in the facility's zone, at most 90 days ahead), with a reason. */
export async function pauseDelinquency(ctx: CommandContext, customerId: string, until: string, reason: string) {
  await knownCustomer(ctx, customerId);
  const today = await customerToday(ctx.store, customerId, ctx.now);
  return handleCommand(ctx, streams.delinquency(customerId), delinquencyAggregate, (state) => decidePause(state, { customerId, until, reason, today }));
}

/** Staff end a renter's pause today: the next billing day takes the steps it held back. */
export async function resumeDelinquency(ctx: CommandContext, customerId: string, reason: string) {
  await knownCustomer(ctx, customerId);
  const today = await customerToday(ctx.store, customerId, ctx.now);
  return handleCommand(ctx, streams.delinquency(customerId), delinquencyAggregate, (state) => decideResume(state, { customerId, reason, today }));
}

/**
 * Decides on a renter's delinquency stream at its revision and appends what was decided, each
 * event naming `causationId` (the event that made the process act) as its cause; a lost race is
 * decided again on the fresh stream. Null: nothing was decided.
 */
export async function decideOnDelinquency(
  ctx: CommandContext,
  customerId: string,
  decide: (state: DelinquencyState) => DomainEvent[] | Promise<DomainEvent[]>,
  causationId: string | null,
): Promise<{ events: DomainEvent[]; position: Position } | null> {
  const stream = streams.delinquency(customerId);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const { state, revision, lastEventId } = await loadAggregate(ctx.store, stream, delinquencyAggregate);
    const events = await decide(state);
    if (events.length === 0) return null;
    const envelopes = events.map((e) => envelope(ctx, e, causationId ?? lastEventId));
    try {
      const { position } = await ctx.store.append(stream, envelopes, { expectedRevision: revision ?? 'no_stream' });
      return { events, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw new ConcurrencyExhaustedError();
}
