import { UnitSize, unitSizes } from '@storage/contracts/enums';
import type { WaitlistEntry } from '@storage/contracts/public';
import {
  type ListReservationsQuery,
  type ListWaitlistQuery,
  OnlineCheckout,
  openReservationStatuses,
  type Reservation,
  ReservationStatus,
  reservationSorting,
  waitlistSorting,
} from '@storage/contracts/reservations';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, nullsLast, orderBy, positionIn, type SortColumns, textOrder } from '../http/list-page.ts';

const ReservationRow = z.object({
  id: z.string(),
  status: ReservationStatus,
  unit_id: z.string(),
  unit_number: z.string(),
  size: UnitSize,
  monthly_rate: z.string(),
  facility_id: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string(),
  customer_email: z.string(),
  customer_phone: z.string().nullable(),
  move_in_date: z.string(),
  special_requests: z.string().nullable(),
  submitted_at: z.string(),
  lease_id: z.string().nullable(),
  matched_customer_id: z.string().nullable(),
  matched_customer_name: z.string().nullable(),
  online_checkout: OnlineCheckout.nullable(),
  online_checkout_at: z.string().nullable(),
});

const customerName = sql.fragment`COALESCE(c.first_name || ' ' || c.last_name, (r.contact->>'firstName') || ' ' || (r.contact->>'lastName'), '')`;

const reservationSortColumns: SortColumns<keyof typeof reservationSorting.columns> = {
  submittedAt: sql.fragment`r.submitted_at`,
  moveInDate: [sql.fragment`r.move_in_date`, sql.fragment`r.submitted_at`],
  customer: [textOrder(customerName), sql.fragment`r.submitted_at`],
  unit: [textOrder(sql.fragment`u.unit_number`), sql.fragment`r.submitted_at`],
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function reservationsSql(query: z.output<typeof ListReservationsQuery>): ListSql {
  const conditions: FragmentSqlToken[] = [
    query.status ? sql.fragment`r.status = ${query.status}` : sql.fragment`r.status = ANY(${sql.array([...openReservationStatuses], 'text')})`,
  ];
  if (query.facilityId) conditions.push(sql.fragment`u.facility_id = ${query.facilityId}`);
  return {
    select: sql.fragment`r.id::text, r.status, r.unit_id::text, u.unit_number, u.size, u.monthly_rate::text, u.facility_id::text,
      r.customer_id::text, ${customerName} AS customer_name,
      COALESCE(c.email, r.contact->>'email', '') AS customer_email,
      CASE WHEN c.id IS NOT NULL THEN c.phone ELSE r.contact->>'phone' END AS customer_phone,
      to_char(r.move_in_date, 'YYYY-MM-DD') AS move_in_date, r.special_requests, r.submitted_at::text, r.lease_id::text,
      m.id::text AS matched_customer_id, m.first_name || ' ' || m.last_name AS matched_customer_name,
      r.online_checkout, r.online_checkout_at::text`,
    from: sql.fragment`reservations r JOIN units u ON u.id = r.unit_id
      LEFT JOIN customers c ON c.id = r.customer_id
      LEFT JOIN LATERAL (
        SELECT id, first_name, last_name FROM customers
        WHERE r.customer_id IS NULL AND NOT archived AND lower(email) = lower(r.contact->>'email')
        ORDER BY created_at LIMIT 1
      ) m ON true`,
    where: allOf(conditions),
    orderBy: orderBy(reservationSortColumns, sortOf(reservationSorting, query), sql.fragment`r.id`),
  };
}

/**
 * The reservations of one status, or (by default) those staff still have to act on and those
 * being moved in; the oldest first unless asked otherwise. A pending contact shows what the
 * renter typed, and the current customer holding that email.
 */
export async function listReservations(pool: DatabasePool, query: z.output<typeof ListReservationsQuery>) {
  const { rows, info } = await listPage(pool, ReservationRow, reservationsSql(query), query);
  const reservations: Reservation[] = rows.map((row) => ({
    id: row.id,
    status: row.status,
    unitId: row.unit_id,
    unitNumber: row.unit_number,
    size: row.size,
    monthlyRate: row.monthly_rate,
    facilityId: row.facility_id,
    customerId: row.customer_id,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerPhone: row.customer_phone,
    moveInDate: row.move_in_date,
    specialRequests: row.special_requests,
    submittedAt: row.submitted_at,
    leaseId: row.lease_id,
    matchedCustomer: row.matched_customer_id && row.matched_customer_name ? { id: row.matched_customer_id, name: row.matched_customer_name } : null,
    onlineCheckout: row.online_checkout,
    onlineCheckoutAt: row.online_checkout_at,
  }));
  return { reservations, paging: info };
}

const WaitlistRow = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  size: UnitSize.nullable(),
  facility_id: z.string().nullable(),
  facility_name: z.string().nullable(),
  joined_at: z.string(),
});

const waitlistSortColumns: SortColumns<keyof typeof waitlistSorting.columns> = {
  joinedAt: sql.fragment`w.joined_at`,
  name: [textOrder(sql.fragment`w.last_name`), textOrder(sql.fragment`w.first_name`)],
  // A renter who takes any size has none: last.
  size: [nullsLast(positionIn(unitSizes, sql.fragment`w.size`)), sql.fragment`w.joined_at`],
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function waitlistSql(query: z.output<typeof ListWaitlistQuery>): ListSql {
  // A renter who named no facility waits for any of them.
  const facility = query.facilityId ? sql.fragment`w.facility_id = ${query.facilityId} OR w.facility_id IS NULL` : sql.fragment`true`;
  return {
    select: sql.fragment`w.id::text, w.first_name, w.last_name, w.email, w.phone, w.size, w.facility_id::text, f.name AS facility_name, w.joined_at::text`,
    from: sql.fragment`waitlist_entries w LEFT JOIN facilities f ON f.id = w.facility_id`,
    where: sql.fragment`(${facility})`,
    orderBy: orderBy(waitlistSortColumns, sortOf(waitlistSorting, query), sql.fragment`w.id`),
  };
}

/** Renters waiting for a unit, the newest first unless asked otherwise. */
export async function listWaitlist(pool: DatabasePool, query: z.output<typeof ListWaitlistQuery>) {
  const { rows, info } = await listPage(pool, WaitlistRow, waitlistSql(query), query);
  const entries: WaitlistEntry[] = rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    size: row.size,
    facilityId: row.facility_id,
    facilityName: row.facility_name,
    joinedAt: row.joined_at,
  }));
  return { entries, paging: info };
}
