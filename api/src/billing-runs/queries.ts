import { type BillingRun, BillingRunSkip, type ListBillingRunsQuery } from '@storage/contracts/billing';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, fixedOrder, type ListSql, listPage } from '../http/list-page.ts';

const BillingRunRow = z.object({
  id: z.string(),
  facility_id: z.string().nullable(),
  facility_name: z.string().nullable(),
  billing_date: z.string(),
  ran_at: z.string(),
  invoices_issued: z.number(),
  late_fees_charged: z.number(),
  invoices_overdue: z.number(),
  skipped: z.array(BillingRunSkip),
});

function toBillingRun(row: z.infer<typeof BillingRunRow>): BillingRun {
  return {
    id: row.id,
    facilityId: row.facility_id,
    facilityName: row.facility_name,
    billingDate: row.billing_date,
    ranAt: row.ran_at,
    invoicesIssued: row.invoices_issued,
    lateFeesCharged: row.late_fees_charged,
    invoicesOverdue: row.invoices_overdue,
    skipped: row.skipped,
  };
}

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function billingRunsSql(query: z.output<typeof ListBillingRunsQuery>): ListSql {
  const conditions = [];
  if (query.facilityId) conditions.push(sql.fragment`r.facility_id = ${query.facilityId}`);
  return {
    select: sql.fragment`
      r.id::text, r.facility_id::text, f.name AS facility_name, r.billing_date, r.ran_at, r.invoices_issued,
      r.late_fees_charged, r.invoices_overdue, r.skipped`,
    from: sql.fragment`billing_runs r LEFT JOIN facilities f ON f.id = r.facility_id`,
    where: allOf(conditions),
    orderBy: fixedOrder('newest', [
      { expression: sql.fragment`r.ran_at`, descending: true },
      { expression: sql.fragment`r.id`, descending: true },
    ]),
  };
}

/** Newest first (billing_runs_ran_at_idx, or billing_runs_facility_idx for one facility). */
export async function listBillingRuns(pool: DatabasePool, query: z.output<typeof ListBillingRunsQuery>) {
  const { rows, info } = await listPage(pool, BillingRunRow, billingRunsSql(query), query);
  return { runs: rows.map(toBillingRun), paging: info };
}
