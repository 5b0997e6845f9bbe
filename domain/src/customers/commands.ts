import { randomUUID } from 'node:crypto';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { readStreams } from '@storage/eventstore/port';
import { anyOverdue, renterInvoices, renterOpenBalance } from '../accounts/receivables.ts';
import { derivedId } from '../commands/derived-id.ts';
import { ConcurrencyExhaustedError, ConflictError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, handleCommand, type LoadedAggregate, loadAggregate, newStream, toDomainEvent } from '../commands/handle.ts';
import { changeUniqueKey, claimUniqueKey, normaliseKey, releaseUniqueKey, type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { markCustomerOverdue } from '../invoices/commands.ts';
import { leaseAggregate } from '../leases/lease.ts';
import { unitAggregate } from '../units/unit.ts';
import { type ChangeCustomerStanding, type CustomerHoldings, decideCustomer } from './businessLogic.ts';
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

/**
 * A manager marks the renter inactive or terminated (or active again), with the reason; active is
 * refused while one of their invoices is overdue, as the invoices' own streams say.
 */
export async function changeCustomerStanding(ctx: CommandContext, customerId: string, status: ChangeCustomerStanding['status'], reason: string) {
  const hasOverdueInvoice = anyOverdue(await renterInvoices(ctx, customerId));
  const changed = await handleCommand(ctx, streams.customer(customerId), customerAggregate, (state) =>
    decideCustomer({ type: 'ChangeCustomerStanding', customerId, status, reason, hasOverdueInvoice }, state),
  );
  if (status !== 'active' || changed.events.length === 0) return changed;
  // An invoice that went overdue between the read and the append found the renter not active and
  // left them so; active now, they are overdue, as the billing engine would have made them.
  if (!anyOverdue(await renterInvoices(ctx, customerId))) return changed;
  const settled = await markCustomerOverdue(ctx, customerId);
  return { ...settled, events: [...changed.events, ...settled.events], position: settled.position ?? changed.position };
}

/**
 * What the customer still holds, each read on its own stream: the leases listed on their stream
 * that are in effect (or being moved into: not started yet, their unit held for them), and the
 * open balance of the invoices listed on their account.
 */
export async function customerHoldings(ctx: CommandContext, customerId: string, state: CustomerState): Promise<CustomerHoldings> {
  const listed = state.status === 'none' ? [] : state.leases;
  const [leases, invoices] = await Promise.all([
    readStreams(
      ctx.store,
      listed.map((l) => streams.lease(l.leaseId)),
    ),
    renterInvoices(ctx, customerId),
  ]);
  const states = listed.map((l) => ({ ...l, lease: aggregateFrom(leases.get(streams.lease(l.leaseId)) ?? [], leaseAggregate).state }));
  // A lease that never started lets its unit go (refused, or given up by the recovery process); until then the move-in is under way.
  const starting = states.filter((l) => l.lease.status === 'none');
  const units = await readStreams(
    ctx.store,
    starting.map((l) => streams.unit(l.unitId)),
  );
  const movingIn = starting.filter((l) => {
    const unit = aggregateFrom(units.get(streams.unit(l.unitId)) ?? [], unitAggregate).state;
    return unit.status === 'current' && unit.leaseId === l.leaseId;
  });
  return { activeLeases: states.filter((l) => l.lease.status === 'active').length + movingIn.length, openBalance: renterOpenBalance(invoices) };
}

/**
 * Archives a customer who no longer rents or owes anything (their leases and invoices decide, on
 * their own streams); their email is let go for a new account.
 */
export async function archiveCustomer(ctx: CommandContext, customerId: string) {
  const stream = streams.customer(customerId);
  const loaded = await loadAggregate(ctx.store, stream, customerAggregate);
  const holdings = await customerHoldings(ctx, customerId, loaded.state);
  const leaseCount = (state: CustomerState) => (state.status === 'none' ? 0 : state.leases.length);
  const result = await handleCommand(
    ctx,
    stream,
    customerAggregate,
    (state) => {
      // A lease listed since the holdings were read is not in them: decided again on a new request.
      if (leaseCount(state) !== leaseCount(loaded.state)) throw new ConcurrencyExhaustedError();
      return decideCustomer({ type: 'ArchiveCustomer', customerId, holdings }, state);
    },
    loaded,
  );
  if (result.events.length > 0 && result.state.status === 'archived') {
    await releaseUniqueKey(ctx, EMAIL_KEY, result.state.fields.email, stream);
  }
  return result;
}

/** Brings an archived customer back, with the email they had, unless another customer holds it now. */
export async function restoreCustomer(ctx: CommandContext, customerId: string) {
  const stream = streams.customer(customerId);
  const loaded = await loadAggregate(ctx.store, stream, customerAggregate);
  const restore = () => handleCommand(ctx, stream, customerAggregate, (state) => decideCustomer({ type: 'RestoreCustomer', customerId }, state), loaded);
  if (loaded.state.status !== 'archived') return restore();
  return withUniqueKey(ctx, emailKey(loaded.state.fields.email, stream), restore);
}

/**
 * Names a lease on the customer's stream before the lease starts (the move-in has taken the unit),
 * so that what is decided about the customer finds it; refused once the customer is archived.
 * `known`: the customer's stream as the move-in read it.
 */
export async function listCustomerLease(ctx: CommandContext, customerId: string, leaseId: string, unitId: string, known?: LoadedAggregate<CustomerState>) {
  return handleCommand(
    ctx,
    streams.customer(customerId),
    customerAggregate,
    (state) => decideCustomer({ type: 'ListCustomerLease', customerId, leaseId, unitId }, state),
    known,
  );
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
