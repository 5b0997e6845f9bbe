import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { EventStore, Position } from '@storage/eventstore/port';
import { PAYABLE_INTENT_STATUSES, type PaymentProvider } from '@storage/platform/payments/provider';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { type CommandContext, loadAggregate } from '../commands/handle.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { cancelOrSucceeded, INTENT_BUSY, markIntent, underIntentLock } from './intents.ts';
import { recordIntentPayment } from './record.ts';
import { finishPendingRefunds } from './refunds.ts';

// The payment reconciliation process: money a provider took is on its invoice (or given back)
// even when nobody reported it: a renter who paid and closed the tab before the success page
// reported it, a webhook that never came (the test provider has none), a refund call that
// failed, a report that crashed half-way. Every intent of ours that may hold such money (live, or
// succeeded and not yet settled) is asked of the provider after a grace period, and a succeeded
// one goes through recordIntentPayment, the same path as the webhook and the success page's
// report. Exactly once by construction: the intent is the step's identity (the invoice stream
// takes one payment or one refund per intent, the provider one refund per intent's key), so a
// second run, a second replica or a run racing a webhook records nothing twice.
//
// It also finishes card refunds staff requested that were never issued (a crash between the
// provider's refund and its record, or a provider refusal): see finishPendingRefunds in
// refunds.ts; the refund's id is the provider's idempotency key, so it is made and recorded once.

/** A card refund requested this long ago and still pending is finished by the run (a request in flight finishes it itself). */
export const PENDING_REFUND_GRACE_MS = 60_000;

/** At most this many intents a run, the least recently asked first; the next run goes on. */
const BATCH_SIZE = 200;

/** What the process did with an intent. */
export type ReconcileAction =
  /** It took money nobody had reported: the payment is now on its invoice. */
  | 'recorded'
  /** It took money its invoice could no longer take: refunded through the provider and recorded. */
  | 'refunded'
  /** Its payment or refund was already recorded (a report came first): nothing appended. */
  | 'settled'
  /** It can never take money now: cancelled through the provider (its invoice is paid or cancelled), or the provider cancelled it. */
  | 'cancelled'
  /** Still payable on an open invoice: asked again after 2, 4, 8 ... minutes, at most hourly. */
  | 'open'
  /** Another call is deciding the invoice's intent right now: looked at again next run. */
  | 'busy'
  /** The provider or the invoice refused (e.g. a refund call failed): retried at the next run, the reason kept in payment_intents.last_error. */
  | 'failed';

export interface ReconciliationRun {
  /** How many intents were asked of the provider. */
  checked: number;
  actions: Partial<Record<ReconcileAction, number>>;
  failures: Array<{ paymentIntentId: string; error: string }>;
  /** Pending card refunds tried, issued, and those the provider refused (kept pending, retried next run). */
  refunds: { checked: number; issued: number; failures: Array<{ refundId: string; error: string }> };
  /** The last event appended, for read-your-writes; null when nothing was. */
  position: Position | null;
}

const CandidateRow = z.object({ id: z.string(), invoice_id: z.string().nullable(), customer_id: z.string(), state: z.enum(['live', 'succeeded']) });
type Candidate = z.infer<typeof CandidateRow>;

interface Reconciled {
  action: Exclude<ReconcileAction, 'failed'>;
  position: Position | null;
}

/**
 * Settles every intent of `provider` that may hold money nobody recorded and was made more than
 * `graceMs` before `now`. Run by the projector every minute and at its start; `npm run ops --
 * payments:reconcile` runs it at once; tests call it with a grace of 0.
 */
export async function reconcilePayments(
  deps: { pool: DatabasePool; store: EventStore; provider: PaymentProvider },
  now: Date,
  graceMs: number,
  refundGraceMs: number = PENDING_REFUND_GRACE_MS,
): Promise<ReconciliationRun> {
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const nowIso = now.toISOString();
  // `now` has milliseconds and created_at microseconds: an intent made within the cutoff's millisecond is in.
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const candidates = await deps.pool.any(sql.type(CandidateRow)`
    SELECT id, invoice_id::text, customer_id::text, state FROM payment_intents
    WHERE settled_at IS NULL AND state IN ('live', 'succeeded') AND provider = ${deps.provider.name}
      AND created_at < ${cutoff}::timestamptz + interval '1 millisecond'
      AND (checked_at IS NULL OR checked_at + least(interval '1 minute' * power(2, least(checks, 6)), interval '1 hour') <= ${nowIso}::timestamptz)
    ORDER BY checked_at NULLS FIRST, created_at
    LIMIT ${BATCH_SIZE}`);
  const pending = await finishPendingRefunds(deps, now, refundGraceMs);
  const { checked, issued, failures } = pending;
  const run: ReconciliationRun = { checked: 0, actions: {}, failures: [], refunds: { checked, issued, failures }, position: pending.position };
  for (const candidate of candidates) {
    run.checked++;
    let action: ReconcileAction;
    try {
      const reconciled = await reconcileIntent(ctx, deps, candidate);
      action = reconciled.action;
      if (reconciled.position) run.position = reconciled.position;
      if (action === 'open') await markAskedAgainLater(deps.pool, candidate.id, nowIso);
    } catch (error) {
      action = 'failed';
      const message = error instanceof Error ? error.message : String(error);
      run.failures.push({ paymentIntentId: candidate.id, error: message });
      await deps.pool.query(sql.unsafe`UPDATE payment_intents SET last_error = ${message} WHERE id = ${candidate.id} AND settled_at IS NULL`);
    }
    run.actions[action] = (run.actions[action] ?? 0) + 1;
  }
  return run;
}

/** What an unsettled intent of ours calls for, from our record of it and the provider's status (null: the provider has no such intent). */
export type IntentStep =
  /** It took money: record its payment, or refund it, through recordIntentPayment. */
  | { kind: 'settle' }
  /** It can never take money (cancelled at the provider, or unknown to it): our record says so. */
  | { kind: 'forget' }
  /** It can still take money: cancelled when its invoice can no longer take it, else asked again later. */
  | { kind: 'payable'; cancellable: boolean }
  /** We saw it take money and the provider now says otherwise: a person must look. */
  | { kind: 'anomaly'; reason: string };

export function intentStep(ours: Candidate['state'], providerStatus: string | null): IntentStep {
  if (providerStatus === 'succeeded') return { kind: 'settle' };
  if (ours === 'succeeded') {
    return {
      kind: 'anomaly',
      reason: `The provider reports ${providerStatus === null ? 'no such intent' : `the intent ${providerStatus}`}, but it took money`,
    };
  }
  if (providerStatus === null || !PAYABLE_INTENT_STATUSES.has(providerStatus)) return { kind: 'forget' };
  // A payment under way at the provider can be neither cancelled nor reused: its outcome is awaited.
  return { kind: 'payable', cancellable: providerStatus !== 'processing' };
}

async function reconcileIntent(ctx: CommandContext, deps: { pool: DatabasePool; provider: PaymentProvider }, candidate: Candidate): Promise<Reconciled> {
  const known = await deps.provider.retrieveIntent(candidate.id);
  const step = intentStep(candidate.state, known?.status ?? null);
  if (step.kind === 'settle') return settle(ctx, deps, candidate.id);
  if (step.kind === 'anomaly') throw new Error(step.reason);
  if (step.kind === 'forget') {
    await markIntent(deps.pool, candidate.id, 'cancelled');
    return { action: 'cancelled', position: null };
  }
  // A payment toward the whole balance is never cancelled: whatever it takes pays invoices or becomes credit.
  const invoiceId = candidate.invoice_id;
  if (!step.cancellable || invoiceId === null || !(await invoiceCannotTakePayment(ctx, invoiceId))) return { action: 'open', position: null };
  // Paid by other means, or cancelled, while a tab still holds this intent: cancelled, so that it
  // never takes money that would only be refunded. Under the invoice's lock, as every change of
  // which intent is live.
  const cancelled = await underIntentLock(deps.pool, { invoiceId, customerId: candidate.customer_id }, async (connection) => {
    const state = await connection.maybeOneFirst(sql.type(z.object({ state: z.string() }))`SELECT state FROM payment_intents WHERE id = ${candidate.id}`);
    if (state !== 'live') return INTENT_BUSY;
    const outcome = await cancelOrSucceeded(deps.provider, candidate.id);
    if (outcome === 'cancelled') await markIntent(connection, candidate.id, 'cancelled');
    return outcome;
  });
  if (cancelled === INTENT_BUSY) return { action: 'busy', position: null };
  // It took the money while we cancelled: it is refunded.
  if (cancelled === 'succeeded') return settle(ctx, deps, candidate.id);
  return { action: 'cancelled', position: null };
}

/** The payment of a succeeded intent, recorded (or refunded) by the path every report takes. */
async function settle(ctx: CommandContext, deps: { pool: DatabasePool; provider: PaymentProvider }, paymentIntentId: string): Promise<Reconciled> {
  const result = await recordIntentPayment(ctx, deps.pool, deps.provider, { paymentIntentId });
  const appended = result.position !== null;
  const action = result.recorded ? 'recorded' : result.refunded && appended ? 'refunded' : 'settled';
  return { action, position: result.position };
}

async function invoiceCannotTakePayment(ctx: CommandContext, invoiceId: string): Promise<boolean> {
  const { state } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  return state.status === 'current' && (state.fields.status === 'paid' || state.fields.status === 'cancelled');
}

/** Still payable: asked again after twice the last wait (2, 4, 8 ... minutes), at most hourly. */
async function markAskedAgainLater(pool: DatabasePool, id: string, nowIso: string) {
  await pool.query(sql.unsafe`
    UPDATE payment_intents SET checked_at = ${nowIso}::timestamptz, checks = checks + 1, last_error = NULL
    WHERE id = ${id} AND state = 'live' AND settled_at IS NULL`);
}
