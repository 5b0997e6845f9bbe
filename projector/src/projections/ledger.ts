import type { InvoiceLine } from '@storage/contracts/billing';
import { DEFAULT_TIME_ZONE } from '@storage/contracts/billing';
import { paymentMethodLabels } from '@storage/contracts/enums';
import type { LedgerEntryKind } from '@storage/contracts/ledger';
import { fromCents, toCents } from '@storage/contracts/money';
import { defineProjection, logOrderOf } from '../projection.ts';
import type { RowOf } from '../read-model-tables.ts';

// Each renter's ledger: one row per money event of theirs, signed (charges +, payments, credits,
// write-offs −), so a statement's running balance is a sum over the rows in order.
//
// When a charge counts: when the invoice is sent (or generated already sent, overdue or paid); a
// draft owes nothing yet. A line added to an invoice already charged (the late fee) is a charge of
// its own; one added to a draft is in the charge when it is sent. Cancelling (voiding) an invoice
// that was charged reverses what it charged with a `void` entry; payments made on it stay.
//
// payment_refunded has no entry: it is a card charge the invoice could NOT take, given straight
// back by the provider. It never counted as a payment, so it never changed what the renter owes;
// two entries that net to zero would only add lines to the renter's statement (the account's
// payments list still shows it, as refunded).
//
// A refund staff give (payment_refund_issued, account_credit_refunded) is a 'refund' entry with a
// positive amount: the money went back, so the renter owes it again (or has that much less
// credit). A new kind of money event is one `case` below that calls `entry(...)` with its kind,
// signed amount and words.
//
// Money that moved keeps its method and desk receipt (for the payments-by-method report), and the
// payment it is about (a payment's own id; a refund's, the payment it gives back: the renter's
// payments list): taken from the event's own `method`, `receiptId` and `paymentId` when it has
// them, so a new event that names them is read without more code; a staff credit, write-off or
// void has none.

const CHARGED_KINDS = new Set<string>(['charge', 'late_fee', 'void']);

/** One formatter per zone: making one per event would be most of a rebuild's time. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The date (YYYY-MM-DD) in `timeZone` at the ISO timestamp `at`. */
function dateIn(timeZone: string, at: string): string {
  if (timeZone === 'UTC' && at.endsWith('Z')) return at.slice(0, 10);
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(at));
}

/** The event's `method`, `receiptId` and `paymentId`, when it has them. */
function moneyTrail(data: unknown): { method: string | null; receiptId: string | null; paymentId: string | null } {
  const fields = (data ?? {}) as { method?: unknown; receiptId?: unknown; paymentId?: unknown };
  return {
    method: typeof fields.method === 'string' ? fields.method : null,
    receiptId: typeof fields.receiptId === 'string' ? fields.receiptId : null,
    paymentId: typeof fields.paymentId === 'string' ? fields.paymentId : null,
  };
}

/** 'Invoice INV-1001 — Rent Dec 1 – Dec 31, 2026': the invoice's description, or its lines'. */
function chargeDescription(invoice: RowOf<'invoices'>): string {
  const lines = (invoice.lines as InvoiceLine[] | null) ?? [];
  const words = invoice.description ?? lines.map((l) => l.description).join(', ');
  return words ? `Invoice ${invoice.invoice_number} — ${words}` : `Invoice ${invoice.invoice_number}`;
}

/** The events the ledger makes an entry of (the report totals follow the same ones). */
export const ledgerEventTypes = [
  'account_credit_refunded',
  'account_credited',
  'desk_payment_received',
  'invoice_cancelled',
  'invoice_generated',
  'invoice_line_added',
  'invoice_sent',
  'invoice_written_off',
  'payment_received',
  'payment_refund_issued',
  'portal_payment_received',
] as const;

export const ledgerProjection = defineProjection({
  name: 'ledger',
  tables: ['ledger_entries'],
  reads: ['invoices', 'customers', 'facilities'],
  canHandle: ledgerEventTypes,
  async apply(rows, event) {
    /** The customer's facility and its date at the event (UTC for a customer of no facility), unless the event gives the date. */
    async function where(customerId: string, given: string | undefined) {
      const customer = await rows.get('customers', customerId);
      const facilityId = customer?.facility_id ?? null;
      if (given) return { facilityId, date: given };
      const facility = facilityId ? await rows.get('facilities', facilityId) : undefined;
      return { facilityId, date: dateIn(facility?.time_zone ?? DEFAULT_TIME_ZONE, event.metadata.occurredAt) };
    }

    async function entry(e: {
      customerId: string;
      kind: LedgerEntryKind;
      description: string;
      amountCents: bigint;
      invoice?: RowOf<'invoices'> | undefined;
      date?: string;
    }) {
      const { facilityId, date } = await where(e.customerId, e.date);
      const { method, receiptId, paymentId } = moneyTrail(event.data);
      rows.insert('ledger_entries', {
        id: event.id,
        customer_id: e.customerId,
        facility_id: facilityId,
        entry_date: date,
        recorded_at: event.metadata.occurredAt,
        position: logOrderOf(event.position),
        kind: e.kind,
        description: e.description,
        invoice_id: e.invoice?.id ?? null,
        invoice_number: e.invoice?.invoice_number ?? null,
        amount: fromCents(e.amountCents),
        method,
        receipt_id: receiptId,
        payment_id: paymentId,
      });
    }

    /** What the invoice has charged so far, net of any void (null: never charged). */
    async function charged(invoiceId: string): Promise<bigint | null> {
      const entries = (await rows.find('ledger_entries', 'invoice_id', invoiceId)).filter((r) => CHARGED_KINDS.has(r.kind));
      if (entries.length === 0) return null;
      return entries.reduce((sum, r) => sum + toCents(r.amount), 0n);
    }

    /**
     * The charge of a whole invoice. It is charged once without looking (a rebuild would otherwise
     * ask the database once per invoice): an invoice is generated once, and sent only from draft.
     */
    async function charge(invoiceId: string) {
      const invoice = await rows.get('invoices', invoiceId);
      if (!invoice) return;
      await entry({ customerId: invoice.customer_id, kind: 'charge', description: chargeDescription(invoice), amountCents: toCents(invoice.amount), invoice });
    }

    switch (event.type) {
      case 'invoice_generated':
        if (event.data.status !== 'draft') await charge(event.data.invoiceId);
        return;
      case 'invoice_sent':
        // The domain sends only a draft (sendInvoice), so nothing of it was charged before.
        await charge(event.data.invoiceId);
        return;
      case 'invoice_line_added': {
        const invoice = await rows.get('invoices', event.data.invoiceId);
        // A line on a draft is charged with the rest when it is sent; one on a voided invoice is not owed.
        if (!invoice || invoice.status === 'cancelled' || (await charged(invoice.id)) === null) return;
        const { line } = event.data;
        const kind = line.kind === 'late_fee' ? 'late_fee' : 'charge';
        await entry({
          customerId: invoice.customer_id,
          kind,
          description: `${line.description} — invoice ${invoice.invoice_number}`,
          amountCents: toCents(line.amount),
          invoice,
        });
        return;
      }
      case 'invoice_cancelled': {
        const invoice = await rows.get('invoices', event.data.invoiceId);
        const net = await charged(event.data.invoiceId);
        if (!invoice || net === null || net === 0n) return;
        await entry({ customerId: invoice.customer_id, kind: 'void', description: `Invoice ${invoice.invoice_number} voided`, amountCents: -net, invoice });
        return;
      }
      case 'payment_received': {
        const d = event.data;
        // Credit paying an invoice moves money already on the account (counted when it was credited).
        if (d.method === 'account_credit') return;
        const invoice = await rows.get('invoices', d.invoiceId);
        const method = paymentMethodLabels[d.method].toLowerCase() + (d.reference ? ` ${d.reference}` : '');
        await entry({
          customerId: d.customerId,
          kind: 'payment',
          description: invoice ? `Payment — ${method}, invoice ${invoice.invoice_number}` : `Payment — ${method}`,
          amountCents: -toCents(d.amount),
          invoice,
          date: d.paidDate,
        });
        return;
      }
      case 'desk_payment_received': {
        // The part of a desk payment no invoice took: credit on the account (the invoices' parts are their payments).
        const d = event.data;
        if (toCents(d.credit) === 0n) return;
        const method = paymentMethodLabels[d.method].toLowerCase() + (d.reference ? ` ${d.reference}` : '');
        await entry({ customerId: d.customerId, kind: 'credit', description: `Payment — ${method}, kept as credit`, amountCents: -toCents(d.credit) });
        return;
      }
      case 'portal_payment_received': {
        // The part of a portal card payment no invoice took (the balance dropped meanwhile): credit on the account.
        const d = event.data;
        if (toCents(d.credit) === 0n) return;
        await entry({ customerId: d.customerId, kind: 'credit', description: 'Payment — card, kept as credit', amountCents: -toCents(d.credit) });
        return;
      }
      case 'account_credited': {
        const d = event.data;
        await entry({ customerId: d.customerId, kind: 'credit', description: `Credit — ${d.reason}`, amountCents: -toCents(d.amount) });
        return;
      }
      case 'payment_refund_issued': {
        // Money given back: the renter owes it again (or has that much less credit).
        const d = event.data;
        const invoice = await rows.get('invoices', d.invoiceId);
        const method = paymentMethodLabels[d.method].toLowerCase();
        await entry({
          customerId: d.customerId,
          kind: 'refund',
          description: `Refund — ${method}, invoice ${invoice?.invoice_number ?? ''}: ${d.reason}`,
          amountCents: toCents(d.amount),
          invoice,
          date: d.refundDate,
        });
        return;
      }
      case 'account_credit_refunded': {
        const d = event.data;
        const method = paymentMethodLabels[d.method].toLowerCase() + (d.reference ? ` ${d.reference}` : '');
        await entry({ customerId: d.customerId, kind: 'refund', description: `Refund of credit — ${method}: ${d.reason}`, amountCents: toCents(d.amount) });
        return;
      }
      case 'invoice_written_off': {
        const d = event.data;
        const invoice = await rows.get('invoices', d.invoiceId);
        const number = invoice?.invoice_number ?? '';
        await entry({
          customerId: d.customerId,
          kind: 'write_off',
          description: `Invoice ${number} written off — ${d.reason}`,
          amountCents: -toCents(d.amount),
          invoice,
        });
        return;
      }
    }
  },
});
