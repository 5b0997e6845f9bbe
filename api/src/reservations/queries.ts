import { UnitSize } from '@storage/contracts/enums';
import type { WaitlistEntry } from '@storage/contracts/public';
import { type ListReservationsQuery, type Reservation, ReservationStatus } from '@storage/contracts/reservations';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

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
});

/**
 * The reservations staff still have to act on (and those being moved in), oldest first. A
 * pending contact shows what the renter typed, and the current customer holding that email.
 */
export async function listOpenReservations(pool: DatabasePool, query: z.output<typeof ListReservationsQuery>): Promise<Reservation[]> {
  const facility = query.facilityId ? sql.fragment`AND u.facility_id = ${query.facilityId}` : sql.fragment``;
  const rows = await pool.any(sql.type(ReservationRow)`
    SELECT r.id::text, r.status, r.unit_id::text, u.unit_number, u.size, u.monthly_rate::text, u.facility_id::text,
      r.customer_id::text,
      COALESCE(c.first_name || ' ' || c.last_name, (r.contact->>'firstName') || ' ' || (r.contact->>'lastName'), '') AS customer_name,
      COALESCE(c.email, r.contact->>'email', '') AS customer_email,
      CASE WHEN c.id IS NOT NULL THEN c.phone ELSE r.contact->>'phone' END AS customer_phone,
      to_char(r.move_in_date, 'YYYY-MM-DD') AS move_in_date, r.special_requests, r.submitted_at::text, r.lease_id::text,
      m.id::text AS matched_customer_id, m.first_name || ' ' || m.last_name AS matched_customer_name
    FROM reservations r JOIN units u ON u.id = r.unit_id
    LEFT JOIN customers c ON c.id = r.customer_id
    LEFT JOIN LATERAL (
      SELECT id, first_name, last_name FROM customers
      WHERE r.customer_id IS NULL AND NOT archived AND lower(email) = lower(r.contact->>'email')
      ORDER BY created_at LIMIT 1
    ) m ON true
    WHERE r.status IN ('submitted', 'converting') ${facility}
    ORDER BY r.submitted_at, r.id`);
  return rows.map((row) => ({
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
  }));
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

/** Renters waiting for a unit, newest first. */
export async function listWaitlist(pool: DatabasePool, query: z.output<typeof ListReservationsQuery>): Promise<WaitlistEntry[]> {
  // A renter who named no facility waits for any of them.
  const facility = query.facilityId ? sql.fragment`WHERE w.facility_id = ${query.facilityId} OR w.facility_id IS NULL` : sql.fragment``;
  const rows = await pool.any(sql.type(WaitlistRow)`
    SELECT w.id::text, w.first_name, w.last_name, w.email, w.phone, w.size, w.facility_id::text, f.name AS facility_name, w.joined_at::text
    FROM waitlist_entries w LEFT JOIN facilities f ON f.id = w.facility_id ${facility}
    ORDER BY w.joined_at DESC, w.id`);
  return rows.map((row) => ({
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
}
