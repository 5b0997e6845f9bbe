import { paymentMethodLabels } from '@storage/contracts/enums';
import { formatDollars } from '@storage/contracts/money';
import type { CommandContext } from '@storage/domain/commands/handle';
import { clearIfSettled } from '@storage/domain/delinquency/clearing';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent } from '../projection.ts';
import type { Reaction } from './reaction.ts';

const InvoiceRow = z.object({ customer_id: z.string(), invoice_number: z.string() });

async function invoiceOf(pool: DatabasePool, invoiceId: string) {
  return pool.maybeOne(sql.type(InvoiceRow)`SELECT customer_id::text, invoice_number FROM invoices WHERE id = ${invoiceId}::uuid`);
}

/** The renter the event is about, and what it was in words (the clear's reason). */
async function whoAndWhy(event: ProjectedEvent, pool: DatabasePool): Promise<{ customerId: string; reason: string } | null> {
  switch (event.type) {
    case 'payment_received': {
      const d = event.data;
      const number = (await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'an invoice';
      return { customerId: d.customerId, reason: `Payment of ${formatDollars(d.amount)} (${paymentMethodLabels[d.method]}) on ${number}` };
    }
    case 'desk_payment_received':
      return { customerId: event.data.customerId, reason: `Desk payment of ${formatDollars(event.data.amount)} (${paymentMethodLabels[event.data.method]})` };
    case 'portal_payment_received':
      return { customerId: event.data.customerId, reason: `Portal payment of ${formatDollars(event.data.amount)}` };
    case 'account_credit_applied': {
      const d = event.data;
      const number = (await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'an invoice';
      return { customerId: d.customerId, reason: `Account credit of ${formatDollars(d.amount)} applied to ${number}` };
    }
    case 'invoice_written_off': {
      const d = event.data;
      const number = (await invoiceOf(pool, d.invoiceId))?.invoice_number ?? 'An invoice';
      return { customerId: d.customerId, reason: `${number} written off (${formatDollars(d.amount)})` };
    }
    case 'invoice_cancelled': {
      const invoice = await invoiceOf(pool, event.data.invoiceId);
      return invoice ? { customerId: invoice.customer_id, reason: `${invoice.invoice_number} cancelled` } : null;
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
    const target = await whoAndWhy(event, deps.pool);
    if (!target) return;
    const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: event.metadata.correlationId, now: deps.now };
    await clearIfSettled(deps, ctx, target.customerId, target.reason, event.id);
  },
};
