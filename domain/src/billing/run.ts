import { randomUUID } from 'node:crypto';
import type { BillingSettings } from '@storage/contracts/billing';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, envelope, loadAggregate } from '../commands/handle.ts';
import { addInvoiceLine, markCustomerOverdue, markInvoiceOverdue } from '../invoices/commands.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { todayIn } from './calendar.ts';
import { billLease } from './lease-billing.ts';
import { lateFeeAmount, lateFeeDay } from './periods.ts';
import { billingSettingsFor, facilityTimeZone } from './settings.ts';

// The billing day, per facility in its own time zone: every lease's due invoices issued (billLease),
// then every open invoice past its due date marked overdue with its renter, and the late fee added
// once after the grace days. The read model only nominates leases and invoices; each one's own
// stream decides. Running it again, or twice at once, changes nothing more.

export interface BillingDeps {
  store: EventStore;
  pool: DatabasePool;
}

export interface FacilityBillingRun {
  facilityId: string | null;
  billingDate: string;
  invoicesIssued: number;
  lateFeesCharged: number;
  invoicesOverdue: number;
  customersOverdue: number;
  skipped: { leaseId: string; reason: string }[];
}

export interface BillingDay {
  runs: FacilityBillingRun[];
  /** Where the last appended event is; null when the day changed nothing. */
  position: Position | null;
}

const FacilityRow = z.object({ id: z.string() });
const IdRow = z.object({ id: z.string() });

/** Facilities, and `null` for leases on units of no facility (their days run in UTC). */
async function facilitiesToBill(pool: DatabasePool, only: string | undefined): Promise<(string | null)[]> {
  if (only) return [only];
  const ids = await pool.anyFirst(sql.type(FacilityRow)`SELECT id::text FROM facilities ORDER BY created_at, id`);
  return [...ids, null];
}

/** Leases that may have something to bill: active ones, and ended ones billed short of their end. */
async function leasesOf(pool: DatabasePool, facilityId: string | null): Promise<readonly string[]> {
  return pool.anyFirst(sql.type(IdRow)`
    SELECT l.id::text FROM leases l JOIN units u ON u.id = l.unit_id
    WHERE u.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid
      AND (l.is_active OR l.billed_through IS NULL OR l.billed_through < l.end_date)
    ORDER BY l.start_date, l.id`);
}

/** Open invoices past their due date, and overdue ones whose renter may still show as in good standing. */
async function lateInvoicesOf(pool: DatabasePool, facilityId: string | null, today: string): Promise<readonly string[]> {
  return pool.anyFirst(sql.type(IdRow)`
    SELECT i.id::text FROM invoices i
    WHERE i.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND i.status IN ('sent', 'overdue') AND i.due_date < ${today}::date
    ORDER BY i.due_date, i.id`);
}

const expected = (error: unknown) => error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError;

/**
 * Overdue the day after its due date; the late fee once, on the day after the grace days, on
 * invoices that bill rent for a period (invoices typed by staff, or made before the engine, get none).
 */
async function applyLateRules(
  ctx: CommandContext,
  invoiceId: string,
  today: string,
  settings: BillingSettings,
  run: FacilityBillingRun,
  overdueCustomers: Map<string, string>,
) {
  const { state } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (state.status !== 'current') return null;
  const { fields } = state;
  if (fields.status !== 'sent' && fields.status !== 'overdue') return null;
  if (today <= fields.dueDate) return null;
  let position: Position | null = null;
  if (fields.status === 'sent') {
    const marked = await markInvoiceOverdue(ctx, invoiceId, today);
    if (marked.position) {
      run.invoicesOverdue++;
      position = marked.position;
    }
  }
  overdueCustomers.set(fields.customerId, `Invoice ${fields.invoiceNumber} is overdue`);
  const rentLines = fields.lines.filter((l) => (l.kind === 'rent' || l.kind === 'prorated_rent') && l.periodStart !== null);
  const charged = fields.lines.some((l) => l.kind === 'late_fee');
  if (rentLines.length > 0 && !charged && today >= lateFeeDay(fields.dueDate, settings)) {
    const rent = rentLines.reduce((sum, l) => sum + toCents(l.amount), 0n);
    const amount = lateFeeAmount(settings, fromCents(rent));
    if (toCents(amount) > 0n) {
      const line = {
        kind: 'late_fee' as const,
        description: `Late fee (due ${fields.dueDate}, unpaid after ${settings.graceDays} days)`,
        amount,
        periodStart: null,
        periodEnd: null,
      };
      const added = await addInvoiceLine(ctx, invoiceId, line);
      if (added.position) {
        run.lateFeesCharged++;
        position = added.position;
      }
    }
  }
  return position;
}

async function billFacility(deps: BillingDeps, facilityId: string | null, now: Date, date: string | undefined) {
  const today = date ?? todayIn(await facilityTimeZone(deps.store, facilityId), now);
  const settings = await billingSettingsFor(deps.store, facilityId);
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const run: FacilityBillingRun = {
    facilityId,
    billingDate: today,
    invoicesIssued: 0,
    lateFeesCharged: 0,
    invoicesOverdue: 0,
    customersOverdue: 0,
    skipped: [],
  };
  let position: Position | null = null;
  const leases = await leasesOf(deps.pool, facilityId);
  for (const leaseId of leases) {
    try {
      const billed = await billLease(ctx, leaseId, today, settings);
      run.invoicesIssued += billed.issued;
      position = billed.position ?? position;
    } catch (error) {
      if (!expected(error)) throw error;
      run.skipped.push({ leaseId, reason: (error as Error).message });
    }
  }
  const overdueCustomers = new Map<string, string>();
  const lateInvoices = await lateInvoicesOf(deps.pool, facilityId, today);
  for (const invoiceId of lateInvoices) {
    try {
      position = (await applyLateRules(ctx, invoiceId, today, settings, run, overdueCustomers)) ?? position;
    } catch (error) {
      // Paid or cancelled a moment ago: the read model was behind the invoice's stream.
      if (!expected(error)) throw error;
    }
  }
  for (const [customerId, reason] of overdueCustomers) {
    const marked = await markCustomerOverdue(ctx, customerId, reason);
    if (marked.position) {
      run.customersOverdue++;
      position = marked.position;
    }
  }
  // Staff see each day's first run of a facility with leases or open invoices, and every run that did something.
  const day = streams.billingDay(facilityId, today);
  const didSomething = run.invoicesIssued + run.lateFeesCharged + run.invoicesOverdue + run.customersOverdue + run.skipped.length > 0;
  const hadWork = leases.length + lateInvoices.length > 0;
  if (didSomething || (hadWork && (await deps.store.readStream(day)).length === 0)) {
    const { customersOverdue: _customers, ...summary } = run;
    const event: DomainEvent = { type: 'billing_run_completed', data: { runId: randomUUID(), ...summary } };
    position = (await deps.store.append(day, [envelope(ctx, event)], { expectedRevision: 'any' })).position;
  }
  return { run, position };
}

/**
 * Runs the billing day for every facility (or one), each on its own date: today in its time zone,
 * or `date` (an ISO date) for every one of them, which is how demos and tests advance the clock.
 */
export async function runBillingDay(deps: BillingDeps, now: Date, options: { date?: string; facilityId?: string } = {}): Promise<BillingDay> {
  const day: BillingDay = { runs: [], position: null };
  for (const facilityId of await facilitiesToBill(deps.pool, options.facilityId)) {
    const { run, position } = await billFacility(deps, facilityId, now, options.date);
    day.runs.push(run);
    day.position = position ?? day.position;
  }
  return day;
}
