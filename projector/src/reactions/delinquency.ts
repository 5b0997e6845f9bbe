import { paymentMethodLabels } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import { formatDollars } from '@storage/contracts/money';
import { type CommandContext, toDomainEvent } from '@storage/domain/commands/handle';
import { clearIfSettled } from '@storage/domain/delinquency/clearing';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent } from '../projection.ts';
import type { Reaction } from './reaction.ts';

const InvoiceRow = z.object({ customer_id: z.string(), invoice_number: z.string() });

async function invoiceOf(pool: DatabasePool, invoiceId: string) {
  return pool.maybeOne(sql.type(InvoiceRow)`SELECT customer_id::text, invoice_number FROM invoices WHERE id = ${invoiceId}::uuid`);
}

type Receipt = ProjectedEvent<'desk_payment_received' | 'portal_payment_received'>;

/** A receipt in words: the whole payment at the desk or in the portal, not the part of it on one invoice. */
function receiptReason(receipt: Receipt): string {
  return receipt.type === 'desk_payment_received'
    ? `Desk payment of ${formatDollars(receipt.data.amount)} (${paymentMethodLabels[receipt.data.method]})`
    : `Portal payment of ${formatDollars(receipt.data.amount)}`;
}

/** The receipt `receiptId` of the renter's account stream, in words; null when it is not there. */
async function receiptReasonOf(store: EventStore, customerId: string, receiptId: string): Promise<string | null> {
  for (const recorded of await store.readStream(streams.account(customerId))) {
    if (recorded.type !== 'desk_payment_received' && recorded.type !== 'portal_payment_received') continue;
    const receipt = { type: recorded.type, data: toDomainEvent(recorded).data } as Receipt;
    if (receipt.data.receiptId === receiptId) return receiptReason(receipt);
  }
  return null;
}

/**
 * The renter the event is about, and what it was in words (the clear's reason, worked out only
 * when there is something to clear). A payment that is part of a receipt is named by its receipt:
 * the receipt is recorded before its invoices are paid, so whether the clear comes on the receipt
 * or on one of its payments depends on how far the read model had got when the reaction looked;
 * either way it says the same.
 */
async function whoAndWhy(
  event: ProjectedEvent,
  deps: { pool: DatabasePool; store: EventStore },
): Promise<{ customerId: string; reason: () => Promise<string> } | null> {
  const { pool } = deps;
  switch (event.type) {
    case 'payment_received': {
      const d = event.data;
      return {
        customerId: d.customerId,
        reason: async () => {
          const receipt = d.receiptId ? await receiptReasonOf(deps.store, d.customerId, d.receiptId) : null;
          if (receipt) return receipt;
          const number = (await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'an invoice';
          return `Payment of ${formatDollars(d.amount)} (${paymentMethodLabels[d.method]}) on ${number}`;
        },
      };
    }
    case 'desk_payment_received':
    case 'portal_payment_received':
      return { customerId: event.data.customerId, reason: async () => receiptReason(event) };
    case 'account_credit_applied': {
      const d = event.data;
      return {
        customerId: d.customerId,
        reason: async () => `Account credit of ${formatDollars(d.amount)} applied to ${(await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'an invoice'}`,
      };
    }
    case 'invoice_written_off': {
      const d = event.data;
      return {
        customerId: d.customerId,
        reason: async () => `${(await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'An invoice'} written off (${formatDollars(d.amount)})`,
      };
    }
    case 'invoice_cancelled': {
      const invoice = await invoiceOf(pool, event.data.invoiceId);
      return invoice ? { customerId: invoice.customer_id, reason: async () => `${invoice.invoice_number} cancelled` } : null;
    }
    default:
      return null;
  }
}

/**
 * Clearing, as the money comes in: a payment, credit, write-off or cancellation that brings a
 * delinquent renter's past-due balance to the lockout step's threshold or below (0.00 without a
 * lockout) clears their schedule at once (delinquency_cleared, naming what did it), which is what
 * restores their access. The read model has applied the event; the renter's stream decides, so
 * seeing the event again decides nothing.
 */
export const delinquencyClearingReaction: Reaction = {
  name: 'delinquency-clearing',
  types: ['payment_received', 'desk_payment_received', 'portal_payment_received', 'account_credit_applied', 'invoice_written_off', 'invoice_cancelled'],
  async react(event, deps) {
    const target = await whoAndWhy(event, deps);
    if (!target) return;
    const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: event.metadata.correlationId, now: deps.now };
    await clearIfSettled(deps, ctx, target.customerId, target.reason, event.id);
  },
};
