import type { UnitStatus } from '@storage/contracts/enums';
import { toCents } from '@storage/contracts/money';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent, Projection } from '../projection.ts';

// The dashboard's and the reports' figures, per facility and day (UTC): what happened that day
// (payments, new customers, move-ins and move-outs, units filled and how long they stood empty)
// and by how much the stock figures changed (units, occupied units, active customers,
// outstanding balance). A stock figure at the end of a past month is today's figure less the
// changes since, so month-over-month changes come from the events, not from snapshots taken on time.

type Figure =
  | 'revenue_cents'
  | 'payments'
  | 'customers_added'
  | 'move_ins'
  | 'move_outs'
  | 'units_filled'
  | 'vacant_seconds_filled'
  | 'units_change'
  | 'occupied_units_change'
  | 'active_customers_change'
  | 'outstanding_cents_change';

type Changes = Partial<Record<Figure, number | bigint>>;

const UnitRow = z.object({
  facility_id: z.string().nullable(),
  status: z.string(),
  vacant_since: z.string().nullable(),
  vacant_seconds: z.number(),
});
const CustomerRow = z.object({ facility_id: z.string().nullable(), status: z.string(), archived: z.boolean() });
const InvoiceRow = z.object({ amount_cents: z.number(), open: z.boolean(), facility_id: z.string().nullable() });
const OpenBalanceRow = z.object({ cents: z.number() });

/** Adds to a facility's figures of one day. */
async function record(tx: DatabaseTransactionConnection, facilityId: string | null, day: string, changes: Changes): Promise<void> {
  const figures = Object.entries(changes).filter(([, value]) => BigInt(value) !== 0n) as Array<[Figure, number | bigint]>;
  if (figures.length === 0) return;
  const columns = figures.map(([figure]) => sql.identifier([figure]));
  await tx.query(sql.unsafe`
    INSERT INTO metrics_daily (facility_id, day, ${sql.join(columns, sql.fragment`, `)})
    VALUES (${facilityId}, ${day}, ${sql.join(
      figures.map(([, value]) => sql.fragment`${String(value)}::bigint`),
      sql.fragment`, `,
    )})
    ON CONFLICT ON CONSTRAINT metrics_daily_key DO UPDATE SET ${sql.join(
      figures.map(([figure]) => sql.fragment`${sql.identifier([figure])} = ${sql.identifier(['metrics_daily', figure])} + EXCLUDED.${sql.identifier([figure])}`),
      sql.fragment`, `,
    )}`);
}

const dayOf = (isoTimestamp: string) => isoTimestamp.slice(0, 10);
const secondsBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
const isActive = (customer: { status: string; archived: boolean }) => customer.status === 'active' && !customer.archived;
const isOpen = (status: string) => status === 'sent' || status === 'overdue';

/**
 * A unit is vacant while available or reserved; maintenance pauses the clock. When a lease fills
 * it, the time it stood vacant is recorded as one fill.
 */
async function changeUnitStatus(tx: DatabaseTransactionConnection, unitId: string, status: UnitStatus, at: string) {
  const unit = await tx.maybeOne(
    sql.type(UnitRow)`SELECT facility_id::text, status, vacant_since, vacant_seconds FROM metrics_units WHERE unit_id = ${unitId}`,
  );
  if (!unit || unit.status === status) return;
  const day = dayOf(at);
  const vacantSeconds = unit.vacant_seconds + (unit.vacant_since ? secondsBetween(unit.vacant_since, at) : 0);
  const wasVacant = unit.vacant_since !== null || unit.vacant_seconds > 0;
  let next: { vacantSince: string | null; vacantSeconds: number };
  if (status === 'occupied') {
    next = { vacantSince: null, vacantSeconds: 0 };
    await record(tx, unit.facility_id, day, {
      occupied_units_change: 1,
      move_ins: 1,
      ...(wasVacant ? { units_filled: 1, vacant_seconds_filled: vacantSeconds } : {}),
    });
  } else {
    if (unit.status === 'occupied') await record(tx, unit.facility_id, day, { occupied_units_change: -1, move_outs: 1 });
    next = status === 'maintenance' ? { vacantSince: null, vacantSeconds } : { vacantSince: unit.vacant_since ?? at, vacantSeconds: unit.vacant_seconds };
  }
  await tx.query(sql.unsafe`
    UPDATE metrics_units SET status = ${status}, vacant_since = ${next.vacantSince}, vacant_seconds = ${next.vacantSeconds}
    WHERE unit_id = ${unitId}`);
}

async function openBalanceOf(tx: DatabaseTransactionConnection, customerId: string): Promise<number> {
  return tx.oneFirst(sql.type(OpenBalanceRow)`
    SELECT coalesce(sum(amount_cents), 0)::int8 AS cents FROM metrics_invoices WHERE customer_id = ${customerId} AND open`);
}

/** An invoice joins or leaves the outstanding balance of its customer's facility. */
async function setInvoiceOpen(tx: DatabaseTransactionConnection, invoiceId: string, open: boolean, day: string) {
  const invoice = await tx.maybeOne(sql.type(InvoiceRow)`
    SELECT i.amount_cents, i.open, c.facility_id::text FROM metrics_invoices i
    LEFT JOIN metrics_customers c ON c.customer_id = i.customer_id WHERE i.invoice_id = ${invoiceId}`);
  if (!invoice || invoice.open === open) return;
  await record(tx, invoice.facility_id, day, { outstanding_cents_change: open ? invoice.amount_cents : -invoice.amount_cents });
  await tx.query(sql.unsafe`UPDATE metrics_invoices SET open = ${open} WHERE invoice_id = ${invoiceId}`);
}

async function customerOf(tx: DatabaseTransactionConnection, customerId: string) {
  return tx.maybeOne(sql.type(CustomerRow)`SELECT facility_id::text, status, archived FROM metrics_customers WHERE customer_id = ${customerId}`);
}

async function apply(tx: DatabaseTransactionConnection, event: ProjectedEvent): Promise<void> {
  const at = event.metadata.occurredAt;
  const day = dayOf(at);
  switch (event.type) {
    case 'unit_added': {
      const d = event.data;
      const vacantSince = d.status === 'available' || d.status === 'reserved' ? at : null;
      await tx.query(sql.unsafe`
        INSERT INTO metrics_units (unit_id, facility_id, status, vacant_since) VALUES (${d.unitId}, ${d.facilityId}, ${d.status}, ${vacantSince})`);
      await record(tx, d.facilityId, day, { units_change: 1, occupied_units_change: d.status === 'occupied' ? 1 : 0 });
      return;
    }
    case 'unit_status_changed':
      await changeUnitStatus(tx, event.data.unitId, event.data.status, at);
      return;
    case 'customer_added': {
      const d = event.data;
      await tx.query(sql.unsafe`
        INSERT INTO metrics_customers (customer_id, facility_id, status) VALUES (${d.customerId}, ${d.facilityId}, ${d.status})`);
      await record(tx, d.facilityId, day, { customers_added: 1, active_customers_change: d.status === 'active' ? 1 : 0 });
      return;
    }
    case 'customer_updated': {
      const { customerId, changes } = event.data;
      if (!('status' in changes) && !('facilityId' in changes)) return;
      const before = await customerOf(tx, customerId);
      if (!before) return;
      const after = {
        ...before,
        status: changes.status ?? before.status,
        facility_id: 'facilityId' in changes ? (changes.facilityId ?? null) : before.facility_id,
      };
      if (after.facility_id === before.facility_id) {
        await record(tx, after.facility_id, day, { active_customers_change: Number(isActive(after)) - Number(isActive(before)) });
      } else {
        // A customer who moves takes their open invoices to the new facility's balance.
        const openBalance = await openBalanceOf(tx, customerId);
        await record(tx, before.facility_id, day, { active_customers_change: -Number(isActive(before)), outstanding_cents_change: -openBalance });
        await record(tx, after.facility_id, day, { active_customers_change: Number(isActive(after)), outstanding_cents_change: openBalance });
      }
      await tx.query(sql.unsafe`
        UPDATE metrics_customers SET status = ${after.status}, facility_id = ${after.facility_id} WHERE customer_id = ${customerId}`);
      return;
    }
    case 'customer_archived': {
      const before = await customerOf(tx, event.data.customerId);
      if (!before || before.archived) return;
      await record(tx, before.facility_id, day, { active_customers_change: -Number(isActive(before)) });
      await tx.query(sql.unsafe`UPDATE metrics_customers SET archived = true WHERE customer_id = ${event.data.customerId}`);
      return;
    }
    case 'invoice_generated': {
      const d = event.data;
      const cents = toCents(d.amount);
      const open = isOpen(d.status);
      await tx.query(sql.unsafe`
        INSERT INTO metrics_invoices (invoice_id, customer_id, amount_cents, open)
        VALUES (${d.invoiceId}, ${d.customerId}, ${String(cents)}::bigint, ${open})`);
      if (open) {
        const customer = await customerOf(tx, d.customerId);
        await record(tx, customer?.facility_id ?? null, day, { outstanding_cents_change: cents });
      }
      return;
    }
    case 'invoice_sent':
    case 'invoice_overdue':
      await setInvoiceOpen(tx, event.data.invoiceId, true, day);
      return;
    case 'invoice_cancelled':
      await setInvoiceOpen(tx, event.data.invoiceId, false, day);
      return;
    case 'payment_received': {
      const d = event.data;
      const customer = await customerOf(tx, d.customerId);
      // Revenue counts on the day the money came in.
      await record(tx, customer?.facility_id ?? null, d.paidDate, { revenue_cents: toCents(d.amount), payments: 1 });
      await setInvoiceOpen(tx, d.invoiceId, false, day);
      return;
    }
  }
}

export const metricsProjection: Projection = {
  name: 'metrics',
  tables: ['metrics_units', 'metrics_customers', 'metrics_invoices', 'metrics_daily'],
  apply,
};
