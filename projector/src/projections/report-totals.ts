import type { InvoiceLine } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';
import { ledgerEventTypes } from './ledger.ts';

// What the reports and the dashboard would otherwise sum per request (issue 14), kept as the
// ledger and the invoices change: each renter's ledger balance (the sum of their entries), each
// lease's rent periods (the rent lines of its invoices, counted while the invoice is neither a
// draft nor cancelled), revenue by charge type per facility and month, and money in per month
// (per facility and for all: a desk receipt counts once in each). Every figure follows
// the ledger entry the ledger projection made of the same event (it comes first in the order),
// so the two cannot disagree on an amount, a facility or a date.

const RENT_KINDS = new Set(['rent', 'prorated_rent']);

/** The key of a charge_type_months row: facility ('-' for none), month, what, line kind. */
const chargeKey = (facilityId: string | null, month: string, entry: string, lineKind: string | null) =>
  `${facilityId ?? '-'}|${month}|${entry}|${lineKind ?? ''}`;

/** Adds `cents` to a facility's month of one charge type (a line kind) or reversal (void, write_off). */
async function addCharge(
  rows: ReadModelSession,
  where: { facilityId: string | null; month: string },
  entry: 'line' | 'void' | 'write_off',
  lineKind: string | null,
  cents: bigint,
) {
  const key = chargeKey(where.facilityId, where.month, entry, lineKind);
  const before = await rows.get('charge_type_months', key);
  rows.insert('charge_type_months', {
    key,
    facility_id: where.facilityId,
    month: where.month,
    entry,
    line_kind: lineKind,
    amount: fromCents(toCents(before?.amount ?? '0.00') + cents),
  });
}

/** The invoice's rent lines with a period, as rows of its lease (lines are only ever appended). */
async function keepRentPeriods(rows: ReadModelSession, invoiceId: string) {
  const invoice = await rows.get('invoices', invoiceId);
  if (!invoice?.lease_id) return;
  const counts = invoice.status !== 'draft' && invoice.status !== 'cancelled';
  const lines = (invoice.lines as InvoiceLine[] | null) ?? [];
  lines.forEach((line, index) => {
    if (!RENT_KINDS.has(line.kind) || !line.periodStart || !line.periodEnd) return;
    rows.insert('lease_rent_periods', {
      key: `${invoice.id}:${index + 1}`,
      lease_id: invoice.lease_id!,
      invoice_id: invoice.id,
      period_start: line.periodStart,
      period_end: line.periodEnd,
      counts,
    });
  });
}

/**
 * Money that moved: payments, the part of a desk payment kept as credit, refunds; not charges,
 * staff credits, write-offs or voids. The rule the dashboard's SQL states as isMoneyEntry.
 */
const isMoneyEntry = (entry: RowOf<'ledger_entries'>) =>
  entry.kind === 'payment' || entry.kind === 'refund' || entry.method !== null || entry.receipt_id !== null;

/** Adds a money entry to its month, in its facility's scope and in all facilities': a desk receipt is one payment in each. */
async function addMoney(rows: ReadModelSession, entry: RowOf<'ledger_entries'>) {
  const month = entry.entry_date.slice(0, 7);
  for (const scope of [entry.facility_id ?? '-', '*']) {
    let payment = entry.kind !== 'refund';
    if (payment && entry.receipt_id !== null) {
      const counted = `${scope}|${month}|${entry.receipt_id}`;
      if (await rows.get('money_receipt_months', counted)) payment = false;
      else rows.insert('money_receipt_months', { key: counted, receipt_id: entry.receipt_id });
    }
    const key = `${scope}|${month}`;
    const before = await rows.get('money_months', key);
    rows.insert('money_months', {
      key,
      scope,
      month,
      revenue: fromCents(toCents(before?.revenue ?? '0.00') - toCents(entry.amount)),
      payments: (before?.payments ?? 0) + (payment ? 1 : 0),
    });
  }
}

export const reportTotalsProjection = defineProjection({
  name: 'report-totals',
  tables: ['customer_balances', 'lease_rent_periods', 'charge_type_months', 'money_months', 'money_receipt_months'],
  reads: ['ledger_entries', 'invoices'],
  // The ledger's events: each entry is one of them.
  canHandle: ledgerEventTypes,
  async apply(rows, event) {
    if (event.type === 'invoice_generated' || event.type === 'invoice_sent' || event.type === 'invoice_cancelled' || event.type === 'invoice_line_added') {
      await keepRentPeriods(rows, event.data.invoiceId);
    }
    const entry = await rows.get('ledger_entries', event.id);
    if (!entry) return;
    const balance = await rows.get('customer_balances', entry.customer_id);
    rows.insert('customer_balances', { customer_id: entry.customer_id, balance: fromCents(toCents(balance?.balance ?? '0.00') + toCents(entry.amount)) });

    if (isMoneyEntry(entry)) await addMoney(rows, entry);

    const where = { facilityId: entry.facility_id, month: entry.entry_date.slice(0, 7) };
    if (entry.kind === 'void' || entry.kind === 'write_off') {
      await addCharge(rows, where, entry.kind, null, toCents(entry.amount));
    } else if (entry.kind === 'charge' || entry.kind === 'late_fee') {
      // A line added to a charged invoice is charged alone; a sent (or generated) invoice with the lines it has.
      if (event.type === 'invoice_line_added') {
        await addCharge(rows, where, 'line', event.data.line.kind, toCents(event.data.line.amount));
        return;
      }
      const invoice = await rows.get('invoices', entry.invoice_id);
      for (const line of (invoice?.lines as InvoiceLine[] | null) ?? []) await addCharge(rows, where, 'line', line.kind, toCents(line.amount));
    }
  },
});
