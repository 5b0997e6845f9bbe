import { randomUUID } from 'node:crypto';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { derivedId } from '../commands/derived-id.ts';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, type LoadedAggregate, loadAggregate, newStream, toDomainEvent } from '../commands/handle.ts';
import { changeUniqueKey, claimUniqueKey, normaliseKey, releaseUniqueKey, type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { type ChangeCustomerStanding, decideCustomer } from './businessLogic.ts';
import { type CustomerContactFields, type CustomerState, customerAggregate } from './customer.ts';

const EMAIL_KEY = 'customer-email';

function emailKey(email: string, ownerStream: string): UniqueKey {
  return { kind: EMAIL_KEY, value: email, ownerStream, field: 'email', takenMessage: `A customer with the email ${email} already exists` };
}

/** The customer's stream as loaded, when the customer exists and is not archived. */
async function loadCurrentCustomer(ctx: CommandContext, customerId: string) {
  return currentCustomer(await loadAggregate(ctx.store, streams.customer(customerId), customerAggregate));
}

/** A customer's stream as read (with others, in one statement), when the customer exists and is not archived. */
export function currentCustomer(loaded: LoadedAggregate<CustomerState>) {
  if (loaded.state.status !== 'current') throw new NotFoundError('Customer not found');
  return { ...loaded, state: loaded.state };
}

/** Commands about one customer (a lease, an invoice) need the customer to exist and not be archived. */
export async function requireCurrentCustomer(ctx: CommandContext, customerId: string) {
  return (await loadCurrentCustomer(ctx, customerId)).state;
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
    handleCommand(ctx, stream, customerAggregate, (state) => decideCustomer({ type: 'AddCustomer', customerId, fields }, state), newStream(customerAggregate)),
  );
}

export async function updateCustomer(ctx: CommandContext, customerId: string, changes: Partial<CustomerContactFields>) {
  const stream = streams.customer(customerId);
  const loaded = await loadCurrentCustomer(ctx, customerId);
  // Decided on the stream as just loaded: a change in between makes the append fail, and it is decided again.
  const update = () =>
    handleCommand(ctx, stream, customerAggregate, (current) => decideCustomer({ type: 'UpdateCustomer', customerId, changes }, current), loaded);
  if (changes.email === undefined) return update();
  return changeUniqueKey(ctx, emailKey(changes.email, stream), loaded.state.fields.email, update);
}

/** A manager marks the renter inactive or terminated (or active again), with the reason. */
export async function changeCustomerStanding(ctx: CommandContext, customerId: string, status: ChangeCustomerStanding['status'], reason: string) {
  return handleCommand(ctx, streams.customer(customerId), customerAggregate, (state) =>
    decideCustomer({ type: 'ChangeCustomerStanding', customerId, status, reason }, state),
  );
}

export async function archiveCustomer(ctx: CommandContext, customerId: string) {
  const stream = streams.customer(customerId);
  const result = await handleCommand(ctx, stream, customerAggregate, (state) => decideCustomer({ type: 'ArchiveCustomer', customerId }, state));
  // An archived customer's email may be used again by a new account.
  if (result.events.length > 0 && result.state.status === 'archived') {
    await releaseUniqueKey(ctx, EMAIL_KEY, result.state.fields.email, stream);
  }
  return result;
}

/**
 * Adds customer `customerId` unless it exists already: for a step that may be repeated or raced,
 * whose customer id is derived from what it acts on. False when another customer holds the email.
 */
export async function addCustomerOnce(ctx: CommandContext, fields: CreateCustomerCommand, customerId: string): Promise<boolean> {
  const stream = streams.customer(customerId);
  if (!(await claimUniqueKey(ctx, EMAIL_KEY, fields.email, stream))) return false;
  // A claim left by a crash before the add is ours and is finished here; it is never let go.
  await handleCommand(ctx, stream, customerAggregate, (state) =>
    state.status === 'none' ? decideCustomer({ type: 'AddCustomer', customerId, fields }, state) : [],
  );
  return true;
}

/** Online reservations with one brand-new email made within this of each other share the customer the first one adds. */
const SHARED_NEW_CUSTOMER_MS = 60_000;

/** The id of the customer an online reservation adds: derived from the email and the claim it makes, so racing submissions add one. */
function onlineCustomerId(email: string, claimAfterRevision: bigint | null): string {
  return derivedId('online-reservation-customer', normaliseKey(email), claimAfterRevision === null ? 'none' : String(claimAfterRevision));
}

/**
 * The customer an anonymous online reservation is attached to. A brand-new email adds the
 * customer (as the renter typed it); reservations racing with it, or made within a minute with
 * the same email (one visitor reserving several units), attach to that same customer. An email
 * that already belongs to a customer gives null: an anonymous visitor is never attached to
 * someone's account unchecked; staff match the reservation's contact when moving the renter in.
 */
export async function customerForOnlineReservation(ctx: CommandContext, fields: CreateCustomerCommand): Promise<string | null> {
  const keyStream = streams.uniqueKey(EMAIL_KEY, normaliseKey(fields.email));
  for (let attempt = 0; attempt < 5; attempt++) {
    const recorded = await ctx.store.readStream(keyStream);
    const last = recorded.at(-1);
    const lastEvent = last ? toDomainEvent(last) : null;
    if (last && lastEvent?.type === 'unique_key_claimed') {
      const young = Date.now() - Date.parse(last.recordedAt) < SHARED_NEW_CUSTOMER_MS;
      const sharedId = onlineCustomerId(fields.email, recorded.at(-2)?.revision ?? null);
      if (young && lastEvent.data.ownerStream === streams.customer(sharedId)) {
        if (await addCustomerOnce(ctx, fields, sharedId)) return sharedId;
        continue;
      }
      const { state } = await loadAggregate(ctx.store, lastEvent.data.ownerStream, customerAggregate);
      // Someone's email (or being added by staff this moment): the reservation keeps a pending contact.
      if (state.status === 'current' || young) return null;
      // Otherwise the claim was left by a crash long ago, and is taken over below.
    }
    const customerId = onlineCustomerId(fields.email, last ? last.revision : null);
    if (await addCustomerOnce(ctx, fields, customerId)) return customerId;
  }
  throw new ConflictError('Someone else changed this at the same time. Please try again.');
}

/** A note staff keep on the customer; its author is the command's actor. */
export async function addCustomerNote(ctx: CommandContext, customerId: string, text: string, noteId: string = randomUUID()) {
  return handleCommand(ctx, streams.customer(customerId), customerAggregate, (state) =>
    decideCustomer({ type: 'AddCustomerNote', customerId, noteId, text }, state),
  );
}
