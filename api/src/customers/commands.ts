import { randomUUID } from 'node:crypto';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { claimUniqueKey, releaseUniqueKey } from '../commands/unique-keys.ts';
import { decideCustomer } from './businessLogic.ts';
import { customerAggregate, type CustomerFields } from './customer.ts';

const EMAIL_KEY = 'customer-email';

function duplicateEmail(email: string) {
  return new ConflictError(`A customer with the email ${email} already exists`, 'email');
}

export async function addCustomer(ctx: CommandContext, fields: CreateCustomerCommand, customerId: string = randomUUID()) {
  const stream = streams.customer(customerId);
  if (!(await claimUniqueKey(ctx, EMAIL_KEY, fields.email, stream))) throw duplicateEmail(fields.email);
  try {
    return await handleCommand(ctx, stream, customerAggregate, (state) =>
      decideCustomer({ type: 'AddCustomer', customerId, fields }, state),
    );
  } catch (error) {
    await releaseUniqueKey(ctx, EMAIL_KEY, fields.email, stream);
    throw error;
  }
}

export async function updateCustomer(ctx: CommandContext, customerId: string, changes: Partial<CustomerFields>) {
  const stream = streams.customer(customerId);
  const { state } = await loadAggregate(ctx.store, stream, customerAggregate);
  if (state.status !== 'current') throw new NotFoundError('Customer not found');
  const previousEmail = state.fields.email;
  const emailChanges = changes.email !== undefined && changes.email !== previousEmail;
  if (emailChanges && !(await claimUniqueKey(ctx, EMAIL_KEY, changes.email!, stream))) throw duplicateEmail(changes.email!);
  const result = await handleCommand(ctx, stream, customerAggregate, (current) =>
    decideCustomer({ type: 'UpdateCustomer', customerId, changes }, current),
  );
  if (emailChanges) await releaseUniqueKey(ctx, EMAIL_KEY, previousEmail, stream);
  return result;
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
