import { AccessHours, accessHoursWords } from '@storage/contracts/access-hours';
import { InvoiceLine, invoiceLineKindLabels } from '@storage/contracts/billing';
import { InvoiceStatus, UnitSize } from '@storage/contracts/enums';
import type { PortalAccessLog, PortalAccount, PortalContact, PortalContactPlace, PortalInvoice, PortalProfile, PortalUnit } from '@storage/contracts/portal';
import { currentGateCodes } from '@storage/domain/access/gate-codes';
import { accountStanding } from '@storage/domain/payments/account-payment';
import type { EventStore } from '@storage/eventstore/port';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';
import { isOpenInvoice, openAmount } from '../invoices/open-sql.ts';
import { shownLines } from '../invoices/queries.ts';

// What a portal session reads: always one customer's rows, named by the session.

const PortalCustomerRow = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  created_at: z.string(),
});
export type PortalCustomer = z.infer<typeof PortalCustomerRow>;

const customerColumns = sql.fragment`id::text, first_name, last_name, email, phone, address, created_at`;

export async function findCustomerByEmail(db: CommonQueryMethods, email: string): Promise<PortalCustomer | null> {
  return db.maybeOne(sql.type(PortalCustomerRow)`
    SELECT ${customerColumns} FROM customers WHERE lower(email) = ${email.toLowerCase()} AND NOT archived LIMIT 1`);
}

export async function findCustomerById(db: CommonQueryMethods, id: string): Promise<PortalCustomer | null> {
  return db.maybeOne(sql.type(PortalCustomerRow)`SELECT ${customerColumns} FROM customers WHERE id = ${id} AND NOT archived`);
}

export function toPortalProfile(row: PortalCustomer): PortalProfile {
  return { firstName: row.first_name, lastName: row.last_name, email: row.email, phone: row.phone, address: row.address, createdAt: row.created_at };
}

const InvoiceRow = z.object({
  id: z.string(),
  customer_id: z.string(),
  invoice_number: z.string(),
  amount: z.string(),
  open_balance: z.string(),
  description: z.string().nullable(),
  lease_id: z.string().nullable(),
  lines: z.array(InvoiceLine),
  due_date: z.string(),
  status: InvoiceStatus,
});

/** The customer's bills, paid and unpaid, newest first; drafts and cancelled invoices are not bills. */
export async function listPortalInvoices(db: CommonQueryMethods, customerId: string): Promise<PortalInvoice[]> {
  const rows = await db.any(sql.type(InvoiceRow)`
    SELECT i.id::text, i.customer_id::text, i.invoice_number, i.amount,
           (CASE WHEN ${isOpenInvoice()} THEN greatest(${openAmount()}, 0) ELSE 0 END)::numeric(20, 2)::text AS open_balance,
           i.description, i.lease_id::text, i.lines, i.due_date, i.status FROM invoices i
    WHERE i.customer_id = ${customerId} AND i.status IN ('sent', 'paid', 'overdue')
    ORDER BY i.due_date DESC, i.created_at DESC, i.id DESC`);
  return rows.map((r) => ({
    id: r.id,
    customerId: r.customer_id,
    invoiceNumber: r.invoice_number,
    amount: r.amount,
    openBalance: r.open_balance,
    description: r.description,
    lines: shownLines(r).map((line) => ({ ...line, label: invoiceLineKindLabels[line.kind] })),
    dueDate: r.due_date,
    status: r.status,
  }));
}

const CreditRow = z.object({ credit: z.string() });

/**
 * The renter's open balance, standing and minimum due today (in their facility's zone), as the
 * payment form will decide them (on the account's streams), and their credit.
 */
export async function getPortalAccount(db: CommonQueryMethods, store: EventStore, customerId: string, now: Date): Promise<PortalAccount> {
  const [{ range, overdue }, credit] = await Promise.all([
    accountStanding(store, customerId, now),
    db.maybeOne(sql.type(CreditRow)`SELECT credit_balance::numeric(20, 2)::text AS credit FROM customers WHERE id = ${customerId}`),
  ]);
  return { openBalance: range.balance, status: overdue ? 'OVERDUE' : 'CURRENT', minimumDue: range.minimumDue, credit: credit?.credit ?? '0.00' };
}

const UnitRow = z.object({
  lease_id: z.string(),
  unit_id: z.string(),
  building: z.string(),
  unit_number: z.string(),
  size: UnitSize,
  monthly_rate: z.string(),
  move_out_date: z.string().nullable(),
  access_hours: AccessHours.nullable(),
});

/** The units of the customer's active leases, at the lease's monthly rate. */
export async function listPortalUnits(db: CommonQueryMethods, store: EventStore, customerId: string): Promise<PortalUnit[]> {
  const rows = await db.any(sql.type(UnitRow)`
    SELECT l.id::text AS lease_id, u.id::text AS unit_id, u.building, u.unit_number, u.size, l.monthly_rate, l.move_out_date, f.access_hours
    FROM leases l JOIN units u ON u.id = l.unit_id LEFT JOIN facilities f ON f.id = u.facility_id
    WHERE l.customer_id = ${customerId} AND l.is_active
    ORDER BY u.building, u.unit_number`);
  // Each code from its stream: no read table holds a code.
  const codes = await currentGateCodes(
    store,
    rows.map((r) => r.lease_id),
  );
  return rows.map((r) => ({
    leaseId: r.lease_id,
    unitId: r.unit_id,
    building: r.building,
    unitNumber: r.unit_number,
    size: r.size,
    monthlyRate: r.monthly_rate,
    status: 'Active',
    moveOutDate: r.move_out_date,
    gateCode: ((code) => (code === undefined ? null : { code: code.code, active: code.suspended === null, awaitingSignature: code.suspended === 'unsigned' }))(
      codes.get(r.lease_id),
    ),
    accessHours: accessHoursWords(r.access_hours),
  }));
}

const ACCESS_LOG_LIMIT = 100;

const AccessRow = z.object({
  id: z.string(),
  attempted_at: z.string(),
  unit_number: z.string().nullable(),
  lock_id: z.string().nullable(),
  via: z.string(),
  granted: z.boolean(),
  reason: z.string(),
});

/** The renter's most recent access attempts as their facility's gateway reported them, newest first. */
export async function listPortalAccessLogs(db: CommonQueryMethods, customerId: string): Promise<PortalAccessLog[]> {
  const rows = await db.any(sql.type(AccessRow)`
    SELECT a.id::text, a.attempted_at, a.unit_number, k.lock_id, a.via, a.granted, a.reason
    FROM access_attempts a LEFT JOIN locks k ON k.id = a.lock_id
    WHERE a.customer_id = ${customerId}
    ORDER BY a.attempted_at DESC, a.id DESC LIMIT ${ACCESS_LOG_LIMIT}`);
  return rows.map((r) => ({
    id: r.id,
    occurredAt: r.attempted_at,
    unitNumber: r.unit_number,
    lockId: r.lock_id,
    method: r.via === 'gate_code' ? 'Gate code' : 'Lock',
    granted: r.granted,
    reason: r.reason,
  }));
}

const FacilityContactRow = z.object({
  facility_id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  address: z.string(),
  building: z.string().nullable(),
  unit_number: z.string().nullable(),
});

type BusinessContact = { name: string | null; phone: string | null; email: string | null };

/**
 * Whom the renter calls (PortalContact): each facility of their active leases with their units
 * there; without one, the facility of their latest lease, else the facility on their record;
 * the business for a renter of no facility. A facility without a phone gives the business's.
 */
export async function getPortalContact(db: CommonQueryMethods, customerId: string, business: BusinessContact): Promise<PortalContact> {
  const rows = await db.any(sql.type(FacilityContactRow)`
    WITH rented AS (
      SELECT u.facility_id, u.building, u.unit_number, l.is_active, l.start_date, l.created_at
      FROM leases l JOIN units u ON u.id = l.unit_id
      WHERE l.customer_id = ${customerId} AND u.facility_id IS NOT NULL
    ), chosen AS (
      SELECT facility_id, building, unit_number FROM rented WHERE is_active
      UNION ALL
      (SELECT facility_id, NULL, NULL FROM rented WHERE NOT EXISTS (SELECT 1 FROM rented WHERE is_active)
       ORDER BY start_date DESC, created_at DESC LIMIT 1)
      UNION ALL
      SELECT c.facility_id, NULL, NULL FROM customers c
      WHERE c.id = ${customerId} AND c.facility_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rented)
    )
    SELECT f.id::text AS facility_id, f.name, f.phone, f.address, ch.building, ch.unit_number
    FROM chosen ch JOIN facilities f ON f.id = ch.facility_id
    ORDER BY f.name, f.id, ch.building, ch.unit_number`);
  const places = new Map<string, PortalContactPlace>();
  for (const row of rows) {
    const place = places.get(row.facility_id) ?? {
      facilityId: row.facility_id,
      name: row.name,
      phone: row.phone ?? business.phone,
      address: row.address,
      units: [],
    };
    if (row.building !== null && row.unit_number !== null) place.units.push({ building: row.building, unitNumber: row.unit_number });
    places.set(row.facility_id, place);
  }
  const found = [...places.values()];
  return {
    places: found.length > 0 ? found : [{ facilityId: null, name: business.name, phone: business.phone, address: null, units: [] }],
    email: business.email,
  };
}

/**
 * The sender a renter's statement names at its top: their one facility (its name and phone, the
 * business's email), or, for a renter of several, the business with each facility's phone.
 */
export function statementSender({ places, email }: PortalContact, business: BusinessContact): BusinessContact {
  if (places.length === 1) return { name: places[0]!.name, phone: places[0]!.phone, email };
  const phones = places.filter((place) => place.phone !== null).map((place) => `${place.name} ${place.phone}`);
  return { name: business.name, phone: phones.join('   ·   ') || business.phone, email };
}
