import { randomUUID } from 'node:crypto';
import type { BillingSettings } from '@storage/contracts/billing';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { fromCents, toCents } from '@storage/contracts/money';
import { comparePositions, type EventStore, type Position, readStreams } from '@storage/eventstore/port';
import type { PaymentProvider } from '@storage/platform/payments/provider';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { accountAggregate } from '../accounts/account.ts';
import { type CurrentInvoice, lateFrom } from '../accounts/receivables.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, envelope, loadAggregate } from '../commands/handle.ts';
import { runDelinquencyDay } from '../delinquency/run.ts';
import { addInvoiceLine, markCustomerOverdue, markInvoiceOverdue } from '../invoices/commands.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { leaseAggregate } from '../leases/lease.ts';
import { decideDefaultEnrollment, enrollInDefaultPlan } from '../leases/protection.ts';
import { runScheduledMoveOuts, type ScheduledMoveOutsRun } from '../leases/scheduled-move-outs.ts';
import { type AutopayRun, runAutopay } from '../payments/autopay.ts';
import { addDays, instantOn, todayIn } from './calendar.ts';
import { billLease, invoiceNumberKeyStream, type LeaseBillingHints, nextLeasePeriod } from './lease-billing.ts';
import { issuedBy, lateFeeAmount, lateFeeDay, taxLineFor } from './periods.ts';
import { type FacilityTerms, facilityBilling } from './settings.ts';

// The billing day, per facility in its own time zone: every lease's due invoices issued (billLease),
// autopay's charges due that day, then every open invoice past its due date marked overdue with its
// renter, the late fee added once after the grace days, and the delinquency schedule's steps. A run
// after days without one runs each missed day in that order, one day after the other, so every
// day's charges come before its late rules. The read model only nominates leases and invoices (the
// run adds what it billed itself, which the read model may not show yet); each one's own stream
// decides. Running it again, or twice at once, changes nothing more.

export interface BillingDeps {
  store: EventStore;
  pool: DatabasePool;
  /** The card provider autopay charges through; without it the day charges no saved card (the demo seed, most tests). */
  provider?: PaymentProvider;
}

export interface FacilityBillingRun {
  facilityId: string | null;
  billingDate: string;
  invoicesIssued: number;
  lateFeesCharged: number;
  invoicesOverdue: number;
  customersOverdue: number;
  /** Delinquency steps taken on renters (delinquency_step_taken), and renters cleared without a reaction seeing it. */
  delinquencySteps: number;
  delinquencyCleared: number;
  skipped: { leaseId: string; reason: string }[];
  /** Leases enrolled in the default protection plan (each a lease_protection_changed of its own). */
  protectionEnrolled: number;
  /** Autopay's charges of the day (not part of billing_run_completed: each is an event of its own). */
  autopay: Omit<AutopayRun, 'position'>;
  /** The move-outs scheduled for the day (or a missed day before it) that it did (not part of billing_run_completed either). */
  moveOuts: Omit<ScheduledMoveOutsRun, 'position'>;
}

export interface BillingDay {
  /** One per facility and day billed, each facility's days in order (several when it caught up). */
  runs: FacilityBillingRun[];
  /** Where the last appended event is; null when the day changed nothing. */
  position: Position | null;
}

const FacilityRow = z.object({ id: z.string() });
const IdRow = z.object({ id: z.string() });
const LeaseRow = z.object({ id: z.string(), customer_id: z.string() });

/**
 * Leases (and late invoices) in flight at once in a facility's run. Each is its own streams, so
 * they go side by side; a renter's leases go one after another (they share the renter's account,
 * whose credit the first one's invoice takes first). Small: the event store's pool has 10 connections.
 */
export const BILLING_CONCURRENCY = 8;

/** Renters whose streams are read together, a moment before their leases are billed. */
const PREFETCHED_RENTERS = BILLING_CONCURRENCY * 8;

/**
 * Reads the streams the renters' leases are billed on, in two round trips instead of three per
 * lease: each lease's stream and its renter's account (for the renter's first lease: the next
 * one's account may have changed by then), then the number claims of the invoices they are due.
 */
async function prefetch(store: EventStore, renters: [customerId: string, leaseIds: string[]][], today: string, settings: BillingSettings) {
  const leaseIds = renters.flatMap(([, ids]) => ids);
  const read = await readStreams(store, [...leaseIds.map(streams.lease), ...renters.map(([customerId]) => streams.account(customerId))]);
  const hints = new Map<string, LeaseBillingHints>();
  const keys: string[] = [];
  for (const [customerId, ids] of renters) {
    ids.forEach((leaseId, i) => {
      const lease = aggregateFrom(read.get(streams.lease(leaseId))!, leaseAggregate);
      const account = i === 0 ? aggregateFrom(read.get(streams.account(customerId))!, accountAggregate) : undefined;
      hints.set(leaseId, { lease, ...(account && { account }) });
      const period = nextLeasePeriod(lease.state, settings);
      if (period && issuedBy(period, today)) keys.push(invoiceNumberKeyStream(leaseId, period));
    });
  }
  if (keys.length > 0) {
    const numberClaims = await readStreams(store, keys);
    for (const hint of hints.values()) hint.numberClaims = numberClaims;
  }
  return hints;
}

/** The later of two positions in the log (appends side by side finish in any order). */
function later(a: Position | null, b: Position | null): Position | null {
  if (a === null) return b;
  if (b === null) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** Runs `work` on every item, at most `concurrency` at once; the first failure ends it (no new items start). */
async function eachAtMost<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Facilities, and `null` for leases on units of no facility (their days run in UTC). */
async function facilitiesToBill(pool: DatabasePool, only: string | undefined): Promise<(string | null)[]> {
  if (only) return [only];
  const ids = await pool.anyFirst(sql.type(FacilityRow)`SELECT id::text FROM facilities ORDER BY created_at, id`);
  return [...ids, null];
}

/** Leases that may have something to bill: active ones, and ended ones billed short of their end. */
async function leasesOf(pool: DatabasePool, facilityId: string | null) {
  return pool.any(sql.type(LeaseRow)`
    SELECT l.id::text, l.customer_id::text FROM leases l JOIN units u ON u.id = l.unit_id
    WHERE u.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid
      AND (l.is_active OR l.billed_through IS NULL OR l.billed_through < l.end_date)
    ORDER BY l.start_date, l.id`);
}

/** Open invoices past their due date, and overdue ones whose renter may still show as in good standing; `billed`: the run's own. */
async function lateInvoicesOf(pool: DatabasePool, facilityId: string | null, today: string, billed: Iterable<string>): Promise<readonly string[]> {
  const nominated = await pool.anyFirst(sql.type(IdRow)`
    SELECT i.id::text FROM invoices i
    WHERE i.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND i.status IN ('sent', 'overdue') AND i.due_date < ${today}::date
    ORDER BY i.due_date, i.id`);
  return [...new Set([...nominated, ...billed])];
}

/**
 * The day the grace days run from: the day the invoice is late from (receivables' lateFrom: the
 * later of its due date and the day the renter came to owe it), so an invoice sent after its due
 * date or reopened by a refund gets its grace days like any other. An invoice whose events do not
 * say when it was sent (written before the day was kept) counts from the facility's date of its
 * sending event, as it did then.
 */
async function graceFrom(ctx: CommandContext, invoice: CurrentInvoice, zone: string): Promise<string> {
  if (invoice.owedSince !== null) return lateFrom(invoice);
  const events = await ctx.store.readStream(streams.invoice(invoice.invoiceId));
  const sent = events.find((e) => e.type === 'invoice_sent') ?? events[0];
  const sentDay = sent ? todayIn(zone, new Date(sent.metadata.occurredAt)) : '0001-01-01';
  return [sentDay, invoice.fields.dueDate].sort()[1]!;
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
  zone: string,
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
  if (rentLines.length > 0 && !charged && today >= lateFeeDay(fields.dueDate, settings) && today >= lateFeeDay(await graceFrom(ctx, state, zone), settings)) {
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
      // The fee and its sales tax in one append (settings of today: the fee is new, nothing billed is taxed again).
      const tax = taxLineFor(line, settings.salesTax);
      const added = await addInvoiceLine(ctx, invoiceId, line, tax);
      if (added.position) {
        run.lateFeesCharged++;
        position = added.position;
      }
    }
  }
  return position;
}

interface RunOptions {
  date?: string;
  facilityId?: string;
  newId?: () => string;
  /** Renters billed at once (default BILLING_CONCURRENCY); 1 appends in one order every time. */
  concurrency?: number;
}

/** What a catch-up's earlier days billed: the read model may not show it yet, so the later days look at it themselves. */
interface Billed {
  invoiceIds: Set<string>;
  renters: Set<string>;
}

const DateRow = z.object({ date: z.string().nullable() });

/**
 * The days a run bills, in order: every day after the last one billed, up to `today`, each whole
 * (a catch-up after downtime never does two days' work on one day). Only `today` when it was
 * billed already (a rerun) or no earlier day is known (a new facility: nothing to catch up).
 */
export function catchUpDays(lastBilled: string | null, today: string): string[] {
  if (lastBilled === null || lastBilled >= today) return [today];
  const days: string[] = [];
  for (let day = addDays(lastBilled, 1); day <= today; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * The last day billed before `today`: the read model nominates the last day it shows a run for,
 * and the days' own streams after it (billing-day-<facility>-<date>, written at the end of each
 * day's run) decide, so days the read model does not show yet are not billed twice.
 */
async function lastBilled(deps: BillingDeps, facilityId: string | null, today: string): Promise<string | null> {
  const shown = await deps.pool.oneFirst(sql.type(DateRow)`
    SELECT max(billing_date)::text AS date FROM billing_runs WHERE facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND billing_date < ${today}::date`);
  if (shown === null) return null;
  const after = catchUpDays(shown, today);
  const recorded = await readStreams(
    deps.store,
    after.map((day) => streams.billingDay(facilityId, day)),
  );
  return after.findLast((day) => (recorded.get(streams.billingDay(facilityId, day))?.length ?? 0) > 0) ?? shown;
}

async function billFacility(deps: BillingDeps, facilityId: string | null, now: Date, options: RunOptions) {
  const offers = await facilityBilling(deps.store, facilityId);
  const { timeZone: zone } = offers;
  const today = options.date ?? todayIn(zone, now);
  const billed: Billed = { invoiceIds: new Set(), renters: new Set() };
  const runs: FacilityBillingRun[] = [];
  let position: Position | null = null;
  // Each missed day whole, in order: a day's autopay charges and late rules see the invoices the
  // days before issued, and no day's late rules come before its own charges.
  for (const day of catchUpDays(await lastBilled(deps, facilityId, today), today)) {
    const billedDay = await billFacilityDay(deps, facilityId, day, zone, offers, now, options, billed);
    runs.push(billedDay.run);
    position = later(position, billedDay.position);
  }
  return { runs, position };
}

async function billFacilityDay(
  deps: BillingDeps,
  facilityId: string | null,
  today: string,
  zone: string,
  offers: FacilityTerms,
  now: Date,
  options: RunOptions,
  billed: Billed,
) {
  const { settings } = offers;
  // Only a facility that enrols renters in a default plan reads each lease for it.
  const enrolling = offers.protection.enrollAfterDays !== null && offers.protection.defaultPlanId !== null;
  const { newId = randomUUID, concurrency = BILLING_CONCURRENCY } = options;
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  // Stamped on the day it bills (a catch-up's earlier days, a day run ahead), so the ledger dates each charge and fee on it.
  const at = instantOn(today, zone, now);
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: newId(), now: at, causedByStreamHead: true };
  const run: FacilityBillingRun = {
    facilityId,
    billingDate: today,
    invoicesIssued: 0,
    lateFeesCharged: 0,
    invoicesOverdue: 0,
    customersOverdue: 0,
    delinquencySteps: 0,
    delinquencyCleared: 0,
    skipped: [],
    protectionEnrolled: 0,
    autopay: { attempted: 0, succeeded: 0, failed: 0, errors: [] },
    moveOuts: { movedOut: 0, skipped: [] },
  };
  let position: Position | null = null;
  // Scheduled move-outs first: their leases end, and their deposits pay what is owed, before the day's late rules.
  const { position: movedOut, ...moveOuts } = await runScheduledMoveOuts(deps, ctx, facilityId, today);
  run.moveOuts = moveOuts;
  position = later(position, movedOut);
  const leases = await leasesOf(deps.pool, facilityId);
  const byRenter = new Map<string, string[]>();
  for (const lease of leases) byRenter.set(lease.customer_id, [...(byRenter.get(lease.customer_id) ?? []), lease.id]);
  const renters = [...byRenter];
  // The renters' streams are read a chunk at a time, the next chunk while this one is billed, so
  // no lease waits for a read and no worker waits for the end of a chunk.
  const chunks = new Map<number, Promise<Map<string, LeaseBillingHints>>>();
  const hintsOf = (chunk: number) => {
    let hints = chunks.get(chunk);
    if (!hints) {
      hints = prefetch(deps.store, renters.slice(chunk * PREFETCHED_RENTERS, (chunk + 1) * PREFETCHED_RENTERS), today, settings);
      // Awaited by the chunk's renters; a failure read ahead is theirs to throw, not an unhandled one.
      hints.catch(() => {});
      chunks.set(chunk, hints);
      chunks.delete(chunk - 2);
    }
    return hints;
  };
  await eachAtMost([...renters.keys()], concurrency, async (i) => {
    const chunk = Math.floor(i / PREFETCHED_RENTERS);
    if ((chunk + 1) * PREFETCHED_RENTERS < renters.length) hintsOf(chunk + 1);
    const hints = await hintsOf(chunk);
    for (const leaseId of renters[i]![1]) {
      try {
        // Before billing, so the period billed today already carries the plan it is enrolled in.
        // The lease read ahead tells whether to enrol; only then is its stream read again to decide.
        const hint = hints.get(leaseId)?.lease;
        const mayEnrol = enrolling && (!hint || decideDefaultEnrollment(hint.state, offers, today).length > 0);
        const enrolled = mayEnrol ? await enrollInDefaultPlan(ctx, leaseId, offers, today) : null;
        if (enrolled?.position) run.protectionEnrolled += 1;
        const lease = await billLease(ctx, leaseId, today, settings, enrolled?.position ? undefined : hints.get(leaseId));
        run.invoicesIssued += lease.issued;
        for (const invoiceId of lease.invoiceIds) billed.invoiceIds.add(invoiceId);
        if (lease.invoiceIds.length > 0) billed.renters.add(renters[i]![0]);
        position = later(position, lease.position);
      } catch (error) {
        if (!expected(error)) throw error;
        run.skipped.push({ leaseId, reason: (error as Error).message });
      }
    }
  });
  // Skipped leases in the order they were nominated, whichever finished first.
  const order = new Map(leases.map((lease, i) => [lease.id, i]));
  run.skipped.sort((a, b) => order.get(a.leaseId)! - order.get(b.leaseId)!);
  // Autopay charges what is due today (and retries), after issuing and before the late rules: a
  // renter charged on the due date is never marked overdue the day after.
  if (deps.provider) {
    const { position: charged, ...autopay } = await runAutopay(ctx, { ...deps, provider: deps.provider }, facilityId, today, billed.invoiceIds);
    run.autopay = autopay;
    position = later(position, charged);
  }
  const lateInvoices = await lateInvoicesOf(deps.pool, facilityId, today, billed.invoiceIds);
  // Each invoice's renter, with why they are overdue: the latest due invoice gives the reason.
  const overdueByInvoice = lateInvoices.map(() => new Map<string, string>());
  await eachAtMost([...lateInvoices.entries()], concurrency, async ([i, invoiceId]) => {
    try {
      position = later(position, await applyLateRules(ctx, invoiceId, today, zone, settings, run, overdueByInvoice[i]!));
    } catch (error) {
      // Paid or cancelled a moment ago: the read model was behind the invoice's stream.
      if (!expected(error)) throw error;
    }
  });
  const overdueCustomers = new Map(overdueByInvoice.flatMap((m) => [...m]));
  await eachAtMost([...overdueCustomers], concurrency, async ([customerId, reason]) => {
    const marked = await markCustomerOverdue(ctx, customerId, reason);
    if (marked.position) {
      run.customersOverdue++;
      position = later(position, marked.position);
    }
  });
  // The delinquency schedule, after the late rules and the day's charges: a renter autopay paid today is past due no more.
  const delinquency = await runDelinquencyDay(deps, ctx, facilityId, today, concurrency, billed.renters);
  run.delinquencySteps = delinquency.stepsTaken;
  run.delinquencyCleared = delinquency.cleared;
  position = later(position, delinquency.position);
  // Staff see each day's first run of a facility with leases or open invoices, and every run that did something.
  const day = streams.billingDay(facilityId, today);
  const didSomething =
    run.invoicesIssued + run.lateFeesCharged + run.invoicesOverdue + run.customersOverdue + run.delinquencySteps + run.delinquencyCleared + run.skipped.length >
    0;
  const hadWork = leases.length + lateInvoices.length > 0;
  if (didSomething || (hadWork && (await deps.store.readStream(day)).length === 0)) {
    const { customersOverdue: _customers, delinquencySteps: _steps, delinquencyCleared: _cleared, autopay: _autopay, moveOuts: _moveOuts, ...summary } = run;
    const event: DomainEvent = { type: 'billing_run_completed', data: { runId: newId(), ...summary } };
    position = later(position, (await deps.store.append(day, [envelope(ctx, event)], { expectedRevision: 'any' })).position);
  }
  return { run, position };
}

/**
 * Runs the billing day for every facility (or one), each on its own date: today in its time zone,
 * or `date` (an ISO date) for every one of them, which is how demos and tests advance the clock.
 * A facility whose last run was days ago runs each day since in order (catchUpDays): `runs` holds
 * one run per facility and day billed.
 * `newId` makes each run's correlation and run ids (random by default; the demo seed's are drawn
 * from its seed, and with `concurrency: 1` its events come in one order, so the same seed writes
 * the same history).
 */
export async function runBillingDay(deps: BillingDeps, now: Date, options: RunOptions = {}): Promise<BillingDay> {
  const day: BillingDay = { runs: [], position: null };
  for (const facilityId of await facilitiesToBill(deps.pool, options.facilityId)) {
    const { runs, position } = await billFacility(deps, facilityId, now, options);
    day.runs.push(...runs);
    day.position = later(day.position, position);
  }
  return day;
}
