import { randomUUID } from 'node:crypto';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate, toDomainEvent, type CommandContext } from '../commands/handle.ts';
import { changeUniqueKey, normaliseKey, releaseUniqueKey, withUniqueKey, type UniqueKey } from '../commands/unique-keys.ts';
import { decideCustomer } from './businessLogic.ts';
import { customerAggregate, type CustomerFields } from './customer.ts';

const EMAIL_KEY = 'customer-email';

function emailKey(email: string, ownerStream: string): UniqueKey {
  return { kind: EMAIL_KEY, value: email, ownerStream, field: 'email', takenMessage: `A customer with the email ${email} already exists` };
}

/** Commands about one customer (a lease, an invoice) need the customer to exist and not be archived. */
export async function requireCurrentCustomer(ctx: CommandContext, customerId: string) {
  const { state } = await loadAggregate(ctx.store, streams.customer(customerId), customerAggregate);
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  return state;
}

/** The customer who holds `email`, as the write side knows it (the read model may not show them yet). */
export async function customerIdByEmail(ctx: CommandContext, email: string): Promise<string | null> {
  const last = (await ctx.store.readStream(streams.uniqueKey(EMAIL_KEY, normaliseKey(email)))).at(-1);
  if (!last) return null;
  const event = toDomainEvent(last);
  if (event.type !== 'unique_key_claimed') return null;
  const { state } = await loadAggregate(ctx.store, event.data.ownerStream, customerAggregate);
  return state.status === 'current' ? state.customerId : null;
}

export async function addCustomer(ctx: CommandContext, fields: CreateCustomerCommand, customerId: string = randomUUID()) {
  const stream = streams.customer(customerId);
  return withUniqueKey(ctx, emailKey(fields.email, stream), () =>
    handleCommand(ctx, stream, customerAggregate, (state) => decideCustomer({ type: 'AddCustomer', customerId, fields }, state)),
  );
}

export async function updateCustomer(ctx: CommandContext, customerId: string, changes: Partial<CustomerFields>) {
  const stream = streams.customer(customerId);
  const state = await requireCurrentCustomer(ctx, customerId);
  const update = () =>
    handleCommand(ctx, stream, customerAggregate, (current) => decideCustomer({ type: 'UpdateCustomer', customerId, changes }, current));
  if (changes.email === undefined) return update();
  return changeUniqueKey(ctx, emailKey(changes.email, stream), state.fields.email, update);
}

export async function archiveCustomer(ctx: CommandContext, customerId: string) {
  const stream = streams.customer(customerId);
  const result = await handleCommand(ctx, stream, customerAggregate, (state) =>
    decideCustomer({ type: 'ArchiveCustomer', customerId }, state),
  );
  // An archived customer's email may be used again by a new account.
  if (result.events.length > 0 && result.state.status === 'archived') {
    await releaseUniqueKey(ctx, EMAIL_KEY, result.state.fields.email, stream);
  }
  return result;
}
