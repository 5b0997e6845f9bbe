import { invoiceLineKindLabels } from '@storage/contracts/billing';
import { dayInWords } from '@storage/contracts/day-words';
import { type DomainEvent, redactEvent, streams } from '@storage/contracts/events';
import type { InvoiceHistoryEntry } from '@storage/contracts/invoices';
import { formatDollars } from '@storage/contracts/money';
import { refundReasonWords } from '@storage/contracts/payments';
import { toDomainEvent } from '@storage/domain/commands/handle';
import type { EventStore, RecordedEvent } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { peopleNames } from './queries.ts';

/** What an event of an invoice's stream means, in the words a manager uses (invoiceNumber: the invoice's, once it is known). */
export function describeInvoiceEvent(event: DomainEvent, invoiceNumber?: string): string | null {
  switch (event.type) {
    case 'invoice_generated': {
      const d = event.data;
      return `Invoice ${d.invoiceNumber} created as ${d.status} for ${formatDollars(d.amount)}, due ${dayInWords(d.dueDate)}`;
    }
    case 'invoice_line_added': {
      const { line } = event.data;
      return `${invoiceLineKindLabels[line.kind]} of ${formatDollars(line.amount)} added to ${invoiceNumber ?? 'the invoice'}`;
    }
    case 'invoice_sent':
      return 'Invoice sent to the customer';
    case 'invoice_overdue':
      return 'Marked overdue: the due date passed without payment';
    case 'invoice_cancelled':
      return 'Invoice cancelled';
    case 'payment_received':
      return `Payment of ${formatDollars(event.data.amount)} received by ${event.data.method.replace('_', ' ')}`;
    case 'payment_refund_requested':
      return `Refund of ${formatDollars(event.data.amount)} by ${event.data.method.replace('_', ' ')} requested from the payment provider: ${event.data.reason}`;
    case 'payment_refund_issued': {
      const d = event.data;
      const reopened = d.invoiceStatus === 'sent' || d.invoiceStatus === 'overdue' ? ` (the invoice is now ${d.invoiceStatus})` : '';
      return `Refund of ${formatDollars(d.amount)} by ${d.method.replace('_', ' ')}: ${d.reason}${reopened}`;
    }
    case 'payment_refunded':
      return `Card payment of ${formatDollars(event.data.amount)} refunded: ${refundReasonWords[event.data.reason]}`;
    default:
      return null;
  }
}

function actorOf(recorded: RecordedEvent, names: Map<string, string>): InvoiceHistoryEntry['actor'] {
  const { actor } = recorded.metadata;
  if (actor.type === 'system') return { type: 'system', id: null, name: 'System' };
  const fallback = actor.type === 'staff' ? 'A staff member' : 'The customer';
  return { type: actor.type, id: actor.id, name: names.get(actor.id) ?? fallback };
}

/** The invoice's own stream, oldest first, in words with when and who. */
export async function invoiceHistory(store: EventStore, pool: DatabasePool, invoiceId: string): Promise<InvoiceHistoryEntry[]> {
  const recorded = await store.readStream(streams.invoice(invoiceId));
  const idsOf = (type: 'staff' | 'customer') => [...new Set(recorded.flatMap((e) => (e.metadata.actor.type === type ? [e.metadata.actor.id] : [])))];
  const names = await peopleNames(pool, { staff: idsOf('staff'), customers: idsOf('customer') });
  let invoiceNumber: string | undefined;
  return recorded.flatMap((e) => {
    const event = redactEvent(toDomainEvent(e));
    if (event.type === 'invoice_generated') invoiceNumber = event.data.invoiceNumber;
    const description = describeInvoiceEvent(event, invoiceNumber);
    return description === null ? [] : [{ id: e.id, type: e.type, description, occurredAt: e.metadata.occurredAt, actor: actorOf(e, names) }];
  });
}
