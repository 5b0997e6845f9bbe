import { fromCents, toCents } from '@storage/contracts/money';
import type { PlannedRentChange, RentChange, RentChangePlan, SkippedRentChange } from '@storage/contracts/rent-changes';
import { monthlyRateProblem } from '@storage/domain/leases/businessLogic';
import { adjustedRate, type RateAdjustment, wholeMonthsBetween } from '@storage/domain/leases/rent-changes';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const ChangeRow = z.object({
  id: z.string(),
  lease_id: z.string(),
  customer_id: z.string(),
  current_rate: z.string(),
  new_rate: z.string(),
  notice_date: z.string(),
  effective_date: z.string(),
  reason: z.string().nullable(),
  cancelled: z.boolean(),
  cancel_reason: z.string().nullable(),
  created_at: z.string(),
});

/** A lease's rent changes, newest effective date first; `today` (the facility's date) tells pending from in effect. */
export async function leaseRentChanges(pool: DatabasePool, leaseId: string, today: string): Promise<RentChange[]> {
  const rows = await pool.any(sql.type(ChangeRow)`
    SELECT id::text, lease_id::text, customer_id::text, current_rate::text, new_rate::text, notice_date::text, effective_date::text,
           reason, cancelled, cancel_reason, created_at
    FROM lease_rent_changes WHERE lease_id = ${leaseId}
    ORDER BY effective_date DESC, created_at DESC, id`);
  return rows.map((row) => ({
    id: row.id,
    leaseId: row.lease_id,
    customerId: row.customer_id,
    currentRate: row.current_rate,
    newRate: row.new_rate,
    noticeDate: row.notice_date,
    effectiveDate: row.effective_date,
    reason: row.reason,
    status: row.cancelled ? 'cancelled' : row.effective_date <= today ? 'in_effect' : 'pending',
    cancelReason: row.cancel_reason,
    createdAt: row.created_at,
  }));
}

const CandidateRow = z.object({
  id: z.string(),
  customer_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  unit_id: z.string(),
  unit_number: z.string(),
  monthly_rate: z.string(),
  start_date: z.string(),
  changed_rate: z.string().nullable(),
  changed_on: z.string().nullable(),
  pending_id: z.string().nullable(),
  pending_rate: z.string().nullable(),
  pending_on: z.string().nullable(),
});

export interface PlanRequest {
  facilityId: string;
  minMonthsAtRate: number;
  adjustment: RateAdjustment;
  effectiveDate: string;
  /** The facility's date: the notice date, and what tells a change in effect from a pending one. */
  today: string;
  /** A pending change with this id for a lease is this request's own (a retry), not a reason to skip it. */
  ownChangeId?: (leaseId: string) => string;
}

/**
 * The plan of a bulk rent change, from the read model: every active lease of the facility whose
 * rate (its own, or its last change in effect) has stood at least minMonthsAtRate whole months by
 * today, with its new rate; a lease with a change pending is skipped. The preview shows it and the
 * bulk request schedules exactly it.
 */
export async function planRentChanges(pool: DatabasePool, request: PlanRequest): Promise<RentChangePlan> {
  const { facilityId, today } = request;
  const rows = await pool.any(sql.type(CandidateRow)`
    SELECT l.id::text, c.id::text AS customer_id, c.first_name, c.last_name, u.id::text AS unit_id, u.unit_number,
           l.monthly_rate::text, l.start_date::text,
           last.new_rate::text AS changed_rate, last.effective_date::text AS changed_on,
           pending.id::text AS pending_id, pending.new_rate::text AS pending_rate, pending.effective_date::text AS pending_on
    FROM leases l
    JOIN customers c ON c.id = l.customer_id
    JOIN units u ON u.id = l.unit_id
    LEFT JOIN LATERAL (
      SELECT r.new_rate, r.effective_date FROM lease_rent_changes r
      WHERE r.lease_id = l.id AND NOT r.cancelled AND r.effective_date <= ${today}::date
      ORDER BY r.effective_date DESC, r.created_at DESC LIMIT 1) last ON true
    LEFT JOIN LATERAL (
      SELECT r.id, r.new_rate, r.effective_date FROM lease_rent_changes r
      WHERE r.lease_id = l.id AND NOT r.cancelled AND r.effective_date > ${today}::date
      ORDER BY r.effective_date, r.created_at LIMIT 1) pending ON true
    WHERE u.facility_id = ${facilityId} AND l.is_active
    ORDER BY u.unit_number, l.id`);
  const leases: PlannedRentChange[] = [];
  const skipped: SkippedRentChange[] = [];
  for (const row of rows) {
    const currentRate = row.changed_rate ?? row.monthly_rate;
    const monthsAtRate = wholeMonthsBetween(row.changed_on ?? row.start_date, today);
    if (monthsAtRate < request.minMonthsAtRate) continue;
    const party = {
      customer: { id: row.customer_id, firstName: row.first_name, lastName: row.last_name },
      unit: { id: row.unit_id, unitNumber: row.unit_number },
    };
    const own = request.ownChangeId?.(row.id) ?? null;
    if (row.pending_id !== null && row.pending_id !== own) {
      skipped.push({ ...party, leaseId: row.id, currentRate, reason: `A change to ${row.pending_rate} from ${row.pending_on} is pending` });
      continue;
    }
    const newRate = adjustedRate(currentRate, request.adjustment);
    const problem = monthlyRateProblem(newRate);
    if (problem) {
      skipped.push({ ...party, leaseId: row.id, currentRate, reason: `The new rate ${newRate} ${problem}` });
      continue;
    }
    leases.push({ ...party, leaseId: row.id, currentRate, newRate, monthsAtRate, changeId: own });
  }
  return { facilityId, effectiveDate: request.effectiveDate, noticeDate: today, leases, skipped, totals: totalsOf(leases) };
}

export function totalsOf(leases: readonly PlannedRentChange[]): RentChangePlan['totals'] {
  const current = leases.reduce((sum, l) => sum + toCents(l.currentRate), 0n);
  const next = leases.reduce((sum, l) => sum + toCents(l.newRate), 0n);
  return { leases: leases.length, currentMonthly: fromCents(current), newMonthly: fromCents(next), difference: fromCents(next - current) };
}

/** The latest day the rent of the facility's active leases is invoiced through (null: none invoiced), from the read model. */
export async function latestBilledThrough(pool: DatabasePool, facilityId: string): Promise<string | null> {
  return pool.oneFirst(sql.type(z.object({ latest: z.string().nullable() }))`
    SELECT max(l.billed_through)::text AS latest FROM leases l JOIN units u ON u.id = l.unit_id
    WHERE u.facility_id = ${facilityId} AND l.is_active`);
}
