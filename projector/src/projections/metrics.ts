import type { UnitStatus } from '@storage/contracts/enums';
import type { EventType } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import { defineProjection, type ProjectedEvent } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { CounterTables } from '../read-model-tables.ts';

// The dashboard's and the reports' figures, per facility and day (UTC): what happened that day
// (payments, new customers, move-ins and move-outs, units filled and how long they stood empty)
// and by how much the stock figures changed (units, occupied units, outstanding balance). A stock
// figure at the end of a past month is today's figure less the changes since, so month-over-month
// changes come from the events, not from snapshots taken on time. The units and occupied units
// change per building too, for the occupancy of each building. (Active customers are renters with
// a lease in effect: the leases' own dates tell them for any day, see api/src/dashboard/queries.ts.)

/** The events that move the figures (a case of another type does not compile). */
const handled = [
  'account_credit_refunded',
  'account_credited',
  'customer_added',
  'customer_updated',
  'desk_payment_received',
  'invoice_cancelled',
  'invoice_generated',
  'invoice_line_added',
  'invoice_overdue',
  'invoice_sent',
  'invoice_written_off',
  'payment_received',
  'payment_refund_issued',
  'portal_payment_received',
  'unit_added',
  'unit_status_changed',
] as const satisfies readonly EventType[];
type Handled = (typeof handled)[number];

type Changes = Partial<Record<CounterTables['metrics_daily']['figures'], number | bigint>>;

/** Adds to a facility's figures of one day. */
function record(rows: ReadModelSession, facilityId: string | null, day: string, changes: Changes): void {
  rows.count('metrics_daily', { facility_id: facilityId, day }, changes);
}

/** A change of a unit's counts: its facility's figures and its building's of the day. */
function recordUnit(rows: ReadModelSession, unit: { facility_id: string | null; building: string }, day: string, changes: Changes): void {
  record(rows, unit.facility_id, day, changes);
  const { units_change = 0, occupied_units_change = 0 } = changes;
  rows.count('metrics_building_daily', { facility_id: unit.facility_id, building: unit.building, day }, { units_change, occupied_units_change });
}

const dayOf = (isoTimestamp: string) => isoTimestamp.slice(0, 10);
const secondsBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
const isOpen = (status: string) => status === 'sent' || status === 'overdue';

/**
 * A unit is vacant while available or reserved; maintenance pauses the clock. When a lease fills
 * it, the time it stood vacant is recorded as one fill.
 */
async function changeUnitStatus(rows: ReadModelSession, unitId: string, status: UnitStatus, at: string) {
  const unit = await rows.get('metrics_units', unitId);
  if (!unit || unit.status === status) return;
  const day = dayOf(at);
  const vacantSeconds = unit.vacant_seconds + (unit.vacant_since ? secondsBetween(unit.vacant_since, at) : 0);
  const wasVacant = unit.vacant_since !== null || unit.vacant_seconds > 0;
  let next: { vacant_since: string | null; vacant_seconds: number };
  if (status === 'occupied') {
    next = { vacant_since: null, vacant_seconds: 0 };
    recordUnit(rows, unit, day, {
      occupied_units_change: 1,
      move_ins: 1,
      ...(wasVacant ? { units_filled: 1, vacant_seconds_filled: vacantSeconds } : {}),
    });
  } else {
    if (unit.status === 'occupied') recordUnit(rows, unit, day, { occupied_units_change: -1, move_outs: 1 });
    next =
      status === 'maintenance'
        ? { vacant_since: null, vacant_seconds: vacantSeconds }
        : { vacant_since: unit.vacant_since ?? at, vacant_seconds: unit.vacant_seconds };
  }
  await rows.update('metrics_units', unitId, { status, ...next });
}

async function openBalanceOf(rows: ReadModelSession, customerId: string): Promise<number> {
  const invoices = await rows.find('metrics_invoices', 'customer_id', customerId);
  return invoices.filter((invoice) => invoice.open).reduce((cents, invoice) => cents + invoice.amount_cents, 0);
}

/** An invoice joins or leaves the outstanding balance of its customer's facility. */
async function setInvoiceOpen(rows: ReadModelSession, invoiceId: string, open: boolean, day: string) {
  const invoice = await rows.get('metrics_invoices', invoiceId);
  if (!invoice || invoice.open === open) return;
  const customer = await rows.get('metrics_customers', invoice.customer_id);
  record(rows, customer?.facility_id ?? null, day, { outstanding_cents_change: open ? invoice.amount_cents : -invoice.amount_cents });
  await rows.update('metrics_invoices', invoiceId, { open });
}

async function apply(rows: ReadModelSession, event: ProjectedEvent<Handled>): Promise<void> {
  const at = event.metadata.occurredAt;
  const day = dayOf(at);
  switch (event.type) {
    case 'unit_added': {
      const d = event.data;
      const vacantSince = d.status === 'available' || d.status === 'reserved' ? at : null;
      const unit = { unit_id: d.unitId, facility_id: d.facilityId, building: d.building, status: d.status, vacant_since: vacantSince, vacant_seconds: 0 };
      rows.insert('metrics_units', unit);
      recordUnit(rows, unit, day, { units_change: 1, occupied_units_change: d.status === 'occupied' ? 1 : 0 });
      return;
    }
    case 'unit_status_changed':
      await changeUnitStatus(rows, event.data.unitId, event.data.status, at);
      return;
    case 'customer_added': {
      const d = event.data;
      rows.insert('metrics_customers', { customer_id: d.customerId, facility_id: d.facilityId });
      record(rows, d.facilityId, day, { customers_added: 1 });
      return;
    }
    case 'customer_updated': {
      // Only edits written before an edit stopped moving customers between facilities carry one.
      const { customerId, changes } = event.data;
      if (!('facilityId' in changes)) return;
      const before = await rows.get('metrics_customers', customerId);
      const facilityId = changes.facilityId ?? null;
      if (!before || before.facility_id === facilityId) return;
      // A customer who moves takes their open invoices to the new facility's balance.
      const openBalance = await openBalanceOf(rows, customerId);
      record(rows, before.facility_id, day, { outstanding_cents_change: -openBalance });
      record(rows, facilityId, day, { outstanding_cents_change: openBalance });
      rows.insert('metrics_customers', { ...before, facility_id: facilityId });
      return;
    }
    case 'invoice_generated': {
      const d = event.data;
      const cents = toCents(d.amount);
      const open = isOpen(d.status);
      rows.insert('metrics_invoices', { invoice_id: d.invoiceId, customer_id: d.customerId, amount_cents: Number(cents), open });
      if (open) {
        const customer = await rows.get('metrics_customers', d.customerId);
        record(rows, customer?.facility_id ?? null, day, { outstanding_cents_change: cents });
      }
      return;
    }
    case 'invoice_line_added': {
      // A late fee adds to what the renter owes (and to the facility's outstanding, while open).
      // amount_cents is what is still owed on the invoice.
      const before = await rows.get('metrics_invoices', event.data.invoiceId);
      if (!before) return;
      const added = toCents(event.data.line.amount);
      rows.insert('metrics_invoices', { ...before, amount_cents: before.amount_cents + Number(added) });
      if (before.open) {
        const customer = await rows.get('metrics_customers', before.customer_id);
        record(rows, customer?.facility_id ?? null, day, { outstanding_cents_change: added });
      }
      return;
    }
    case 'invoice_sent':
    case 'invoice_overdue':
      await setInvoiceOpen(rows, event.data.invoiceId, true, day);
      return;
    case 'invoice_cancelled':
      await setInvoiceOpen(rows, event.data.invoiceId, false, day);
      return;
    case 'payment_received': {
      const d = event.data;
      const customer = await rows.get('metrics_customers', d.customerId);
      // Revenue counts on the day the money came in (credit from the renter's account came in earlier).
      if (d.method !== 'account_credit') record(rows, customer?.facility_id ?? null, d.paidDate, { revenue_cents: toCents(d.amount), payments: 1 });
      // What is still owed shrinks by the payment; paid in full, the invoice leaves the outstanding balance.
      const invoice = await rows.get('metrics_invoices', d.invoiceId);
      if (!invoice) return;
      const left = invoice.amount_cents - Number(toCents(d.amount));
      if (invoice.open) record(rows, customer?.facility_id ?? null, day, { outstanding_cents_change: -toCents(d.amount) });
      rows.insert('metrics_invoices', { ...invoice, amount_cents: Math.max(left, 0), open: invoice.open && left > 0 });
      return;
    }
    case 'invoice_written_off':
      await setInvoiceOpen(rows, event.data.invoiceId, false, day);
      return;
    case 'desk_payment_received':
    case 'portal_payment_received': {
      // The part of a desk or portal payment no invoice took is money in too (the invoices' shares count as their payments).
      if (toCents(event.data.credit) === 0n) return;
      const customer = await rows.get('metrics_customers', event.data.customerId);
      record(rows, customer?.facility_id ?? null, day, { revenue_cents: toCents(event.data.credit) });
      return;
    }
    case 'payment_refund_issued': {
      // Money given back: revenue falls on the refund's day, and the invoice is owed that much again.
      const d = event.data;
      const customer = await rows.get('metrics_customers', d.customerId);
      const facilityId = customer?.facility_id ?? null;
      if (d.method !== 'account_credit') record(rows, facilityId, d.refundDate, { revenue_cents: -toCents(d.amount) });
      const invoice = await rows.get('metrics_invoices', d.invoiceId);
      if (!invoice) return;
      const open = d.invoiceStatus === 'sent' || d.invoiceStatus === 'overdue';
      const owed = invoice.amount_cents + Number(toCents(d.amount));
      if (open) record(rows, facilityId, day, { outstanding_cents_change: invoice.open ? toCents(d.amount) : BigInt(owed) });
      rows.insert('metrics_invoices', { ...invoice, amount_cents: owed, open });
      return;
    }
    case 'account_credit_refunded': {
      const customer = await rows.get('metrics_customers', event.data.customerId);
      record(rows, customer?.facility_id ?? null, day, { revenue_cents: -toCents(event.data.amount) });
      return;
    }
    case 'account_credited': {
      // A credit is money received (an overpayment) or given (staff): only an overpayment is revenue.
      if (event.data.receiptId === null) return;
      const customer = await rows.get('metrics_customers', event.data.customerId);
      record(rows, customer?.facility_id ?? null, day, { revenue_cents: toCents(event.data.amount) });
      return;
    }
  }
}

export const metricsProjection = defineProjection({
  name: 'metrics',
  tables: ['metrics_units', 'metrics_customers', 'metrics_invoices', 'metrics_daily', 'metrics_building_daily'],
  canHandle: handled,
  apply,
});
