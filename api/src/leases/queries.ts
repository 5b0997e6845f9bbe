import { UnitSize } from '@storage/contracts/enums';
import { SignatureChannel } from '@storage/contracts/lease-signatures';
import { type Lease, type LeaseCounts, type LeaseInvoiceSummary, type LeasesFilter, type ListLeasesQuery, leaseSorting } from '@storage/contracts/leases';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, orderBy, type SortColumns, searchMatches, textOrder } from '../http/list-page.ts';

type Filter = z.output<z.ZodType<LeasesFilter>>;

const LeaseRow = z.object({
  id: z.string(),
  is_active: z.boolean(),
  monthly_rate: z.string(),
  deposit_amount: z.string().nullable(),
  start_date: z.string(),
  end_date: z.string().nullable(),
  move_out_date: z.string().nullable(),
  signed_at: z.string().nullable(),
  signer_name: z.string().nullable(),
  signature_channel: SignatureChannel.nullable(),
  created_at: z.string(),
  customer_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  unit_id: z.string(),
  unit_number: z.string(),
  size: UnitSize,
  building: z.string(),
  facility_id: z.string().nullable(),
});
type LeaseRow = z.infer<typeof LeaseRow>;

/**
 * The rate in effect today (in the facility's zone): the newest rent change that took effect, else
 * the rate the lease started with.
 */
const rateInEffect = sql.fragment`COALESCE((
    SELECT r.new_rate FROM lease_rent_changes r
    WHERE r.lease_id = l.id AND NOT r.cancelled
      AND r.effective_date <= (now() AT TIME ZONE COALESCE((SELECT f.time_zone FROM facilities f WHERE f.id = u.facility_id), 'UTC'))::date
    ORDER BY r.effective_date DESC, r.created_at DESC LIMIT 1), l.monthly_rate)`;

const columns = sql.fragment`
  l.id::text, l.is_active, ${rateInEffect} AS monthly_rate, l.deposit_amount, l.start_date, l.end_date,
  CASE WHEN l.is_active THEN l.move_out_date END AS move_out_date, l.created_at,
  l.signed_at, l.signer_name, l.signature_channel,
  c.id::text AS customer_id, c.first_name, c.last_name, c.email, c.phone,
  u.id::text AS unit_id, u.unit_number, u.size, u.building, u.facility_id::text`;

// A lease always has its customer and unit (starting one requires both).
const leasesWithParties = sql.fragment`leases l JOIN customers c ON c.id = l.customer_id JOIN units u ON u.id = l.unit_id`;
const newestFirst = sql.fragment`l.created_at DESC, l.id DESC`;

/** Facility scope is the unit's facility; the search runs over leases.search_text (trigram index). */
function conditionsOf(filter: Filter): FragmentSqlToken[] {
  const conditions: FragmentSqlToken[] = [];
  if (filter.facilityId) conditions.push(sql.fragment`u.facility_id = ${filter.facilityId}`);
  if (filter.customerId) conditions.push(sql.fragment`l.customer_id = ${filter.customerId}`);
  if (filter.search) conditions.push(searchMatches(sql.fragment`l.search_text`, filter.search));
  if (filter.status) conditions.push(sql.fragment`l.is_active = ${filter.status === 'active'}`);
  if (filter.signature) conditions.push(filter.signature === 'awaiting' ? sql.fragment`l.signed_at IS NULL` : sql.fragment`l.signed_at IS NOT NULL`);
  return conditions;
}

const SummaryRow = z.object({ lease_id: z.string(), paid: z.number(), overdue: z.number(), total: z.number() });
const noInvoices: LeaseInvoiceSummary = { paid: 0, overdue: 0, total: 0 };

async function withInvoiceSummaries(pool: DatabasePool, rows: readonly LeaseRow[]): Promise<Lease[]> {
  if (rows.length === 0) return [];
  const summaries = await pool.any(sql.type(SummaryRow)`
    SELECT lease_id::text, count(*) FILTER (WHERE status = 'paid')::int8 AS paid,
           count(*) FILTER (WHERE status = 'overdue')::int8 AS overdue, count(*)::int8 AS total
    FROM invoices WHERE lease_id = ANY(${sql.array(
      rows.map((r) => r.id),
      'uuid',
    )})
    GROUP BY lease_id`);
  const byLease = new Map(summaries.map(({ lease_id, ...summary }) => [lease_id, summary]));
  return rows.map((row) => toLease(row, byLease.get(row.id) ?? noInvoices));
}

function toLease(row: LeaseRow, invoiceSummary: LeaseInvoiceSummary): Lease {
  return {
    id: row.id,
    customer: { id: row.customer_id, firstName: row.first_name, lastName: row.last_name, email: row.email, phone: row.phone },
    unit: { id: row.unit_id, unitNumber: row.unit_number, size: row.size, building: row.building, facilityId: row.facility_id },
    isActive: row.is_active,
    monthlyRate: row.monthly_rate,
    depositAmount: row.deposit_amount,
    startDate: row.start_date,
    endDate: row.end_date,
    moveOutDate: row.move_out_date,
    createdAt: row.created_at,
    invoiceSummary,
    signature:
      row.signed_at && row.signer_name && row.signature_channel
        ? { signerName: row.signer_name, signedAt: row.signed_at, channel: row.signature_channel }
        : null,
  };
}

const sortColumns: SortColumns<keyof typeof leaseSorting.columns> = {
  createdAt: sql.fragment`l.created_at`,
  startDate: sql.fragment`l.start_date`,
  customer: [textOrder(sql.fragment`c.last_name`), textOrder(sql.fragment`c.first_name`)],
  unit: textOrder(sql.fragment`u.unit_number`),
  monthlyRate: sql.fragment`l.monthly_rate`,
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function leasesSql(query: z.output<typeof ListLeasesQuery>): ListSql {
  return {
    select: columns,
    from: leasesWithParties,
    where: allOf(conditionsOf(query)),
    orderBy: orderBy(sortColumns, sortOf(leaseSorting, query), sql.fragment`l.id`),
  };
}

export async function listLeases(pool: DatabasePool, query: z.output<typeof ListLeasesQuery>) {
  const { rows, info } = await listPage(pool, LeaseRow, leasesSql(query), query);
  return { leases: await withInvoiceSummaries(pool, rows), paging: info };
}

const CountsRow = z.object({ all_leases: z.number(), active: z.number(), inactive: z.number() });

export async function countLeases(pool: DatabasePool, filter: Filter): Promise<LeaseCounts> {
  const counts = await pool.one(sql.type(CountsRow)`
    SELECT count(*)::int8 AS all_leases, count(*) FILTER (WHERE l.is_active)::int8 AS active,
           count(*) FILTER (WHERE NOT l.is_active)::int8 AS inactive
    FROM ${leasesWithParties} WHERE ${allOf(conditionsOf({ ...filter, status: undefined }))}`);
  return { all: counts.all_leases, active: counts.active, inactive: counts.inactive };
}

export async function getLease(pool: DatabasePool, id: string): Promise<Lease | null> {
  const row = await pool.maybeOne(sql.type(LeaseRow)`SELECT ${columns} FROM ${leasesWithParties} WHERE l.id = ${id}`);
  return row ? (await withInvoiceSummaries(pool, [row]))[0]! : null;
}

const EXPORT_BATCH_SIZE = 500;

/** Every lease the filter matches, newest first, a batch at a time (keyset paging: no batch rereads the ones before). */
export async function* leasesMatching(pool: DatabasePool, filter: Filter): AsyncGenerator<Lease[]> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const conditions = conditionsOf(filter);
    if (after) conditions.push(sql.fragment`(l.created_at, l.id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
    const rows = await pool.any(sql.type(LeaseRow)`
      SELECT ${columns} FROM ${leasesWithParties} WHERE ${allOf(conditions)} ORDER BY ${newestFirst} LIMIT ${EXPORT_BATCH_SIZE}`);
    if (rows.length === 0) return;
    yield await withInvoiceSummaries(pool, rows);
    if (rows.length < EXPORT_BATCH_SIZE) return;
    const last = rows.at(-1)!;
    after = { createdAt: last.created_at, id: last.id };
  }
}
