import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { handleCommand, loadAggregate, type CommandContext } from '../commands/handle.ts';
import { withUniqueKey } from '../commands/unique-keys.ts';
import { requireCurrentCustomer } from '../customers/commands.ts';
import { leaseAggregate } from '../leases/lease.ts';
import { decideInvoice, type InvoiceCommand, type ReceivedPayment } from './businessLogic.ts';
import { invoiceAggregate, type InvoiceFields } from './invoice.ts';

function decide(ctx: CommandContext, command: InvoiceCommand) {
  return handleCommand(ctx, streams.invoice(command.invoiceId), invoiceAggregate, (state) => decideInvoice(command, state));
}

function today(ctx: CommandContext): string {
  return ctx.now.toISOString().slice(0, 10);
}

export async function generateInvoice(ctx: CommandContext, fields: InvoiceFields, invoiceId: string = randomUUID()) {
  await requireCurrentCustomer(ctx, fields.customerId);
  if (fields.leaseId !== null) {
    const { state: lease } = await loadAggregate(ctx.store, streams.lease(fields.leaseId), leaseAggregate);
    if (lease.status === 'none') throw new NotFoundError('Lease not found');
    if (lease.terms.customerId !== fields.customerId) throw new DomainRuleError('The lease belongs to another customer', 'leaseId');
  }
  const key = {
    kind: 'invoice-number',
    value: fields.invoiceNumber,
    ownerStream: streams.invoice(invoiceId),
    field: 'invoiceNumber',
    takenMessage: `An invoice numbered ${fields.invoiceNumber} already exists`,
  };
  return withUniqueKey(ctx, key, () => decide(ctx, { type: 'GenerateInvoice', invoiceId, fields }));
}

export async function sendInvoice(ctx: CommandContext, invoiceId: string) {
  return decide(ctx, { type: 'SendInvoice', invoiceId });
}

export async function markInvoiceOverdue(ctx: CommandContext, invoiceId: string) {
  return decide(ctx, { type: 'MarkInvoiceOverdue', invoiceId, today: today(ctx) });
}

/** Records a payment received today; `stripePaymentIntentId` makes a provider's repeated report harmless. */
export async function recordPayment(
  ctx: CommandContext,
  invoiceId: string,
  payment: Omit<ReceivedPayment, 'paymentId' | 'paidDate'>,
  paymentId: string = randomUUID(),
) {
  return decide(ctx, { type: 'RecordPayment', invoiceId, payment: { ...payment, paymentId, paidDate: today(ctx) } });
}

export async function cancelInvoice(ctx: CommandContext, invoiceId: string) {
  return decide(ctx, { type: 'CancelInvoice', invoiceId });
}
