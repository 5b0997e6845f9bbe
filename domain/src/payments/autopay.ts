import { type DomainEvent, streams } from '@storage/contracts/events';
import { toCents } from '@storage/contracts/money';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import type { Position } from '@storage/eventstore/port';
import { autopayKeyOf, type OffSessionOutcome, type PaymentProvider } from '@storage/platform/payments/provider';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { addDays } from '../billing/calendar.ts';
import { derivedId } from '../commands/derived-id.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { type InvoiceState, invoiceAggregate, openBalance } from '../invoices/invoice.ts';
import { settingsAggregate } from '../settings/settings.ts';
import { autopayCard, type PaymentProfileState, profileAggregate } from './profile.ts';
import { recordIntentPayment } from './record.ts';

// The autopay process: on an invoice's due date (the facility's day), a renter enrolled in
// autopay, with the business's "Automatic Charging" on, is charged off-session for what they
// still owe on it. Each attempt is first recorded (autopay_charge_attempted, its id derived from
// the invoice and the attempt's number), then the provider charges under the idempotency key
// autopay-<invoice>-<attempt>, then the outcome is recorded: the payment (through the same path as
// every card payment, recordIntentPayment) and autopay_charge_succeeded, or autopay_charge_failed
// with the next attempt's date. A failed charge is tried again 1, 3 and 5 days after the due date;
// a card that needs the renter (3-D Secure) is not retried (they pay in the portal).
//
// Exactly once by construction: the autopay-<invoice> stream's revision lets one attempt of each
// number be recorded; an attempt recorded without its outcome (a crash, a provider that did not
// answer) is finished by the next run, which asks the provider again under the same key: the
// charge it made then, never a second one. The billing day runs it (billFacilityDay), after issuing
// and before the late rules of the same day, every day of a catch-up in turn, so an enrolled
// renter is charged on the due date before anything counts them late, and
// `npm run ops -- billing:run --date D` advances it.

/** Days after the due date of the retries (attempts 2, 3 and 4); attempt 1 is on the due date. */
export const AUTOPAY_RETRY_DAYS = [1, 3, 5] as const;
export const AUTOPAY_ATTEMPTS = AUTOPAY_RETRY_DAYS.length + 1;

export interface AutopayAttempt {
  attemptId: string;
  attempt: number;
  amount: string;
  date: string;
  outcome: null | 'succeeded' | 'failed';
  requiresAction: boolean;
  nextAttemptOn: string | null;
  stripePaymentIntentId: string | null;
}

export interface AutopayChargesState {
  attempts: readonly AutopayAttempt[];
}

export function evolveAutopayCharges(state: AutopayChargesState, event: DomainEvent): AutopayChargesState {
  switch (event.type) {
    case 'autopay_charge_attempted': {
      const { attemptId, attempt, amount, date } = event.data;
      const next: AutopayAttempt = { attemptId, attempt, amount, date, outcome: null, requiresAction: false, nextAttemptOn: null, stripePaymentIntentId: null };
      return { attempts: [...state.attempts, next] };
    }
    case 'autopay_charge_succeeded':
      return {
        attempts: state.attempts.map((a) =>
          a.attemptId === event.data.attemptId ? { ...a, outcome: 'succeeded' as const, stripePaymentIntentId: event.data.stripePaymentIntentId } : a,
        ),
      };
    case 'autopay_charge_failed': {
      const { attemptId, requiresAction, nextAttemptOn } = event.data;
      return { attempts: state.attempts.map((a) => (a.attemptId === attemptId ? { ...a, outcome: 'failed' as const, requiresAction, nextAttemptOn } : a)) };
    }
    default:
      return state;
  }
}

export const autopayChargesAggregate = { initial: { attempts: [] } as AutopayChargesState, evolve: evolveAutopayCharges };

export const autopayAttemptIdOf = (invoiceId: string, attempt: number) => derivedId('autopay-attempt', invoiceId, String(attempt));

/** What the process does with an invoice today. */
export type AutopayStep =
  /** An attempt was recorded and its outcome was not: ask the provider under its key and record what it says. */
  | { kind: 'finish'; attempt: AutopayAttempt }
  /** Charge the open balance: attempt number `attempt`. */
  | { kind: 'charge'; attempt: number; amount: string }
  | { kind: 'none'; why: string };

export interface AutopayFacts {
  charges: AutopayChargesState;
  invoice: InvoiceState;
  profile: PaymentProfileState;
  automaticCharging: boolean;
  /** The facility's date. */
  today: string;
}

/** The one decision of the process, pure: what to do with an invoice on `today`. */
export function autopayStep({ charges, invoice, profile, automaticCharging, today }: AutopayFacts): AutopayStep {
  const last = charges.attempts.at(-1);
  // Money may have been taken: an attempt without its outcome is finished whatever changed since.
  if (last && last.outcome === null) return { kind: 'finish', attempt: last };
  if (last?.outcome === 'succeeded') return { kind: 'none', why: 'charged' };
  if (last?.outcome === 'failed' && last.nextAttemptOn === null) return { kind: 'none', why: 'no more attempts' };
  if (last?.outcome === 'failed' && today < last.nextAttemptOn!) return { kind: 'none', why: 'next attempt later' };
  if (!automaticCharging) return { kind: 'none', why: 'Automatic Charging is off' };
  if (!autopayCard(profile)) return { kind: 'none', why: 'not enrolled' };
  if (invoice.status !== 'current') return { kind: 'none', why: 'no invoice' };
  const { dueDate, status } = invoice.fields;
  if (status !== 'sent' && status !== 'overdue') return { kind: 'none', why: `invoice ${status}` };
  if (today < dueDate) return { kind: 'none', why: 'not due' };
  // The first attempt on the due date, or (a run missed, a renter who enrolled since) up to the last retry's day.
  if (!last && today > addDays(dueDate, AUTOPAY_RETRY_DAYS.at(-1)!)) return { kind: 'none', why: 'past the autopay window' };
  const amount = openBalance(invoice);
  if (toCents(amount) <= 0n) return { kind: 'none', why: 'nothing owed' };
  return { kind: 'charge', attempt: (last?.attempt ?? 0) + 1, amount };
}

/** When attempt `attempt`, failed on `today`, is tried again; null after the last one (or when only the renter can pay). */
export function nextAttemptOn(dueDate: string, attempt: number, today: string, requiresAction: boolean): string | null {
  if (requiresAction || attempt >= AUTOPAY_ATTEMPTS) return null;
  const scheduled = addDays(dueDate, AUTOPAY_RETRY_DAYS[attempt - 1]!);
  // A run that caught up late never tries twice in one day.
  return scheduled > today ? scheduled : addDays(today, 1);
}

export interface AutopayRun {
  attempted: number;
  succeeded: number;
  failed: number;
  /** Invoices whose step stopped (the provider did not answer, a crash of a call): the next run finishes them. */
  errors: { invoiceId: string; error: string }[];
  position: Position | null;
}

export interface AutopayDeps {
  store: CommandContext['store'];
  pool: DatabasePool;
  provider: PaymentProvider;
}

const IdRow = z.object({ id: z.string() });

/**
 * Invoices of the facility autopay may act on today (the read model nominates; each invoice's
 * streams decide): those due of enrolled renters (up to the last retry's day, or a retry due), and
 * every attempt still without its outcome, whoever paid the invoice since.
 */
async function candidates(pool: DatabasePool, facilityId: string | null, today: string): Promise<readonly string[]> {
  const windowStart = addDays(today, -AUTOPAY_RETRY_DAYS.at(-1)!);
  return pool.anyFirst(sql.type(IdRow)`
    SELECT i.id::text FROM invoices i
      JOIN autopay_enrollments e ON e.customer_id = i.customer_id AND e.enabled
      LEFT JOIN autopay_charges c ON c.invoice_id = i.id
    WHERE i.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid AND i.status IN ('sent', 'overdue') AND i.due_date <= ${today}::date
      AND ((c.invoice_id IS NULL AND i.due_date >= ${windowStart}::date) OR (c.status = 'failed' AND c.next_attempt_on <= ${today}::date))
    UNION
    SELECT c.invoice_id::text FROM autopay_charges c
    WHERE c.status = 'attempted' AND c.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid
    ORDER BY 1`);
}

/** Whether the business's "Automatic Charging" setting is on (its stream decides). */
export async function automaticChargingOn(store: CommandContext['store']): Promise<boolean> {
  const { state } = await loadAggregate(store, streams.settings(BUSINESS_SETTINGS_SCOPE), settingsAggregate);
  return state.payments.automaticCharging;
}

/**
 * The autopay of one facility's day; each invoice on its own (one failing does not stop the others:
 * the next run tries it again). `billed`: invoices the billing run issued (a catch-up's earlier
 * days), which the read model may not show yet; their streams decide like any candidate's.
 */
export async function runAutopay(
  ctx: CommandContext,
  deps: AutopayDeps,
  facilityId: string | null,
  today: string,
  billed: Iterable<string> = [],
): Promise<AutopayRun> {
  const run: AutopayRun = { attempted: 0, succeeded: 0, failed: 0, errors: [], position: null };
  const invoiceIds = [...new Set([...(await candidates(deps.pool, facilityId, today)), ...billed])];
  if (invoiceIds.length === 0) return run;
  const automaticCharging = await automaticChargingOn(deps.store);
  for (const invoiceId of invoiceIds) {
    try {
      await chargeInvoice(ctx, deps, invoiceId, today, automaticCharging, run);
    } catch (error) {
      run.errors.push({ invoiceId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return run;
}

/** Decides on the invoice's streams and acts: records an attempt, charges, records the outcome. */
export async function chargeInvoice(ctx: CommandContext, deps: AutopayDeps, invoiceId: string, today: string, automaticCharging: boolean, run: AutopayRun) {
  const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (invoice.status !== 'current') return;
  const customerId = invoice.fields.customerId;
  const [charges, profile] = await Promise.all([
    loadAggregate(ctx.store, streams.autopayCharges(invoiceId), autopayChargesAggregate),
    loadAggregate(ctx.store, streams.paymentProfile(customerId), profileAggregate),
  ]);
  const step = autopayStep({ charges: charges.state, invoice, profile: profile.state, automaticCharging, today });
  if (step.kind === 'none') return;
  let attempt: AutopayAttempt;
  if (step.kind === 'charge') {
    const attemptId = autopayAttemptIdOf(invoiceId, step.attempt);
    const event: DomainEvent = {
      type: 'autopay_charge_attempted',
      data: { attemptId, customerId, invoiceId, attempt: step.attempt, amount: step.amount, date: today },
    };
    // The stream's revision: a second run (or replica) racing this one records the attempt once, and acts on it once.
    const recorded = await handleCommand(ctx, streams.autopayCharges(invoiceId), autopayChargesAggregate, (state) =>
      state.attempts.some((a) => a.attempt >= step.attempt) ? [] : [event],
    );
    if (recorded.events.length === 0) return;
    run.attempted++;
    run.position = recorded.position;
    attempt = recorded.state.attempts.at(-1)!;
  } else {
    attempt = step.attempt;
  }
  const key = autopayKeyOf(invoiceId, attempt.attempt);
  const dueDate = invoice.fields.dueDate;
  // An attempt being finished (a crash, a provider that did not answer) asks the provider first:
  // the charge made under its key, if any. Only a charge never made is made now, and only while
  // the invoice still owes what the attempt was for.
  let outcome: OffSessionOutcome | null = step.kind === 'finish' ? await deps.provider.findSavedCardCharge(key) : null;
  if (!outcome) {
    const stillOwed = (invoice.fields.status === 'sent' || invoice.fields.status === 'overdue') && toCents(openBalance(invoice)) === toCents(attempt.amount);
    // The card autopay charges now, else the last one saved (a card removed after the attempt was recorded).
    const card = autopayCard(profile.state) ?? profile.state.cards.at(-1);
    if (!stillOwed || !card) {
      const why = !stillOwed ? 'Not charged: the invoice was paid or changed before the charge' : 'Not charged: no saved card';
      return recordOutcome(ctx, run, invoiceId, attempt, [
        failed(attempt, customerId, invoiceId, why, false, nextAttemptOn(dueDate, attempt.attempt, today, false)),
      ]);
    }
    outcome = await deps.provider.chargeSavedCard({
      amount: attempt.amount,
      invoiceId,
      customerId,
      providerCustomerId: card.providerCustomerId,
      providerPaymentMethodId: card.providerPaymentMethodId,
      idempotencyKey: key,
    });
  }
  if (outcome.status === 'processing') return;
  let events: DomainEvent[];
  if (outcome.status === 'succeeded') {
    // The payment goes on the invoice as every card payment does: the provider is asked, the amount
    // checked against the open balance, once per intent. A charge the invoice can no longer take
    // (paid meanwhile, another balance) is given back there, and this attempt counts as failed.
    const paid = await recordIntentPayment(ctx, deps.pool, deps.provider, { paymentIntentId: outcome.intentId, invoiceId, customerId });
    if (paid.position) run.position = paid.position;
    events = paid.refunded
      ? [
          failed(
            attempt,
            customerId,
            invoiceId,
            'The invoice was paid or changed meanwhile: the charge was given back',
            false,
            nextAttemptOn(dueDate, attempt.attempt, today, false),
          ),
        ]
      : [
          {
            type: 'autopay_charge_succeeded',
            data: {
              attemptId: attempt.attemptId,
              customerId,
              invoiceId,
              attempt: attempt.attempt,
              amount: attempt.amount,
              stripePaymentIntentId: outcome.intentId,
            },
          },
        ];
  } else {
    const requiresAction = outcome.status === 'requires_action';
    events = [failed(attempt, customerId, invoiceId, outcome.reason, requiresAction, nextAttemptOn(dueDate, attempt.attempt, today, requiresAction))];
  }
  await recordOutcome(ctx, run, invoiceId, attempt, events);
}

/** The attempt's outcome, recorded once (the stream's revision; a repeat finds it recorded). */
async function recordOutcome(ctx: CommandContext, run: AutopayRun, invoiceId: string, attempt: AutopayAttempt, events: DomainEvent[]) {
  const recorded = await handleCommand(ctx, streams.autopayCharges(invoiceId), autopayChargesAggregate, (state) =>
    state.attempts.find((a) => a.attemptId === attempt.attemptId)?.outcome === null ? events : [],
  );
  if (recorded.events.length === 0) return;
  if (recorded.events[0]!.type === 'autopay_charge_succeeded') run.succeeded++;
  else run.failed++;
  run.position = recorded.position;
}

function failed(attempt: AutopayAttempt, customerId: string, invoiceId: string, reason: string, requiresAction: boolean, next: string | null): DomainEvent {
  return {
    type: 'autopay_charge_failed',
    data: {
      attemptId: attempt.attemptId,
      customerId,
      invoiceId,
      attempt: attempt.attempt,
      amount: attempt.amount,
      reason,
      requiresAction,
      nextAttemptOn: next,
    },
  };
}
