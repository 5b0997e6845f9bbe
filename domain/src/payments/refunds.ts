import { randomUUID } from 'node:crypto';
import type { DeskPaymentMethod } from '@storage/contracts/enums';
import { type EventData, streams } from '@storage/contracts/events';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type PaymentProvider, staffRefundKeyOf } from '@storage/platform/payments/provider';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { refundCredit } from '../accounts/commands.ts';
import { customerToday } from '../billing/settings.ts';
import { NotFoundError, UnfinishedError } from '../commands/errors.ts';
import { type CommandContext, loadAggregate, toDomainEvent } from '../commands/handle.ts';
import { requireCurrentCustomer } from '../customers/commands.ts';
import type { StaffRefund } from '../invoices/businessLogic.ts';
import { refundablePayment } from '../invoices/businessLogic.ts';
import { markCustomerOverdue, recordStaffRefund, requestStaffRefund } from '../invoices/commands.ts';
import { invoiceAggregate, type PendingRefund } from '../invoices/invoice.ts';

// Money going back to the renter, as staff decide it, with a reason.
//
// A refund of a payment gives back part or all of it (never more than it has left unrefunded).
// The money is owed again: the invoice's open balance rises by the refund, and a paid invoice
// reopens (sent, or overdue when its due date has passed), as an operator expects when a payment
// is reversed. A card payment is refunded in three steps, as a desk receipt is paid (desk.ts):
// the refund is requested first (payment_refund_requested: its amount is held against what the
// payment can still give back, so two refunds racing for the last of a payment cannot both be
// requested), then the provider is asked under an idempotency key derived from the refund's id,
// then the refund is issued on the invoice under that id (payment_refund_issued, with the
// provider's refund id). A crash between the provider's refund and its record loses nothing: a
// repeat of the request (the same Idempotency-Key gives the same refund id) or the payment
// reconciliation (finishPendingRefunds, every minute) asks the provider again, which answers with
// the refund it already made, and records it once. A provider that refuses leaves the refund
// requested (pending, its reason kept in refund_attempts.last_error) and it is asked again at the
// next run: a refusal cannot be told apart from an outage across adapters, and a refund staff
// decided is one the renter is owed, so it is never dropped silently. Cash, check, bank transfer
// and card-at-the-desk payments are handed back at the desk and recorded in one step.

export type RecordedRefund = Omit<EventData<'payment_refund_issued'>, 'reason' | 'refundDate' | 'customerId' | 'method'> & { position: Position | null };

const PaymentRow = z.object({ invoice_id: z.string() });

/** The invoice a payment is on (the read model names it; the invoice's stream has the last word). */
async function invoiceOfPayment(pool: DatabasePool, paymentId: string): Promise<string> {
  const row = await pool.maybeOne(sql.type(PaymentRow)`
    SELECT invoice_id::text FROM payments WHERE id = ${paymentId} AND refund_of IS NULL AND status = 'completed' AND invoice_id IS NOT NULL`);
  if (!row) throw new NotFoundError('Payment not found');
  return row.invoice_id;
}

/** The refund as recorded, when this refund id is already on the invoice. */
async function recordedRefund(ctx: CommandContext, invoiceId: string, refundId: string) {
  for (const recorded of await ctx.store.readStream(streams.invoice(invoiceId))) {
    if (recorded.type !== 'payment_refund_issued') continue;
    const event = toDomainEvent(recorded);
    if (event.type === 'payment_refund_issued' && event.data.refundId === refundId) return event.data;
  }
  return null;
}

function answer(data: EventData<'payment_refund_issued'>, position: Position | null): RecordedRefund {
  const { refundId, paymentId, invoiceId, amount, providerRefundId, invoiceStatus } = data;
  return { refundId, paymentId, invoiceId, amount, providerRefundId, invoiceStatus, position };
}

/** The provider's refund; a refusal or an outage leaves the refund requested and says so (409: a repeat finishes it), never a 500. */
async function refundAtProvider(provider: PaymentProvider, intentId: string, request: { amount: string; reason: string }, refundId: string) {
  try {
    return (await provider.refund(intentId, request.amount, staffRefundKeyOf(refundId), request.reason)).id;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnfinishedError(
      `The payment provider did not make the refund (${why}). The refund is pending: repeat the request, or the payment reconciliation retries it within minutes.`,
    );
  }
}

/** Gives back `amount` of a payment, with a reason; `refundId` (from the request's idempotency key) makes a repeat the same refund, and finishes a requested one. */
export async function refundPayment(
  ctx: CommandContext,
  pool: DatabasePool,
  provider: PaymentProvider,
  paymentId: string,
  request: { amount: string; reason: string },
  refundId: string = randomUUID(),
): Promise<RecordedRefund> {
  const invoiceId = await invoiceOfPayment(pool, paymentId);
  const earlier = await recordedRefund(ctx, invoiceId, refundId);
  if (earlier) return answer(earlier, null);
  const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (invoice.status !== 'current') throw new NotFoundError('Payment not found');
  const requested = invoice.payments.find((p) => p.paymentId === paymentId)?.pendingRefunds.find((r) => r.refundId === refundId);
  // A repeat of a requested refund finishes it as it was requested.
  if (requested) return finishRefund(ctx, provider, invoiceId, paymentId, requested);
  const payment = refundablePayment(invoice, paymentId, request.amount, request.reason);
  const { customerId } = invoice.fields;
  const refundDate = await customerToday(ctx.store, customerId, ctx.now);
  const refund = { refundId, paymentId, amount: request.amount, reason: request.reason.trim(), refundDate };
  if (payment.stripePaymentIntentId) {
    await requestStaffRefund(ctx, invoiceId, refund);
    return finishRefund(ctx, provider, invoiceId, paymentId, refund);
  }
  return issueRefund(ctx, invoiceId, customerId, { ...refund, paymentId, providerRefundId: null });
}

/** A requested card refund: the provider asked under the refund's key (a repeat is the refund it made), then issued on the invoice. */
async function finishRefund(
  ctx: CommandContext,
  provider: PaymentProvider,
  invoiceId: string,
  paymentId: string,
  refund: PendingRefund,
): Promise<RecordedRefund> {
  const { state: invoice } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (invoice.status !== 'current') throw new NotFoundError('Payment not found');
  const intentId = invoice.payments.find((p) => p.paymentId === paymentId)?.stripePaymentIntentId;
  if (!intentId) throw new NotFoundError('Payment not found');
  const providerRefundId = await refundAtProvider(provider, intentId, refund, refund.refundId);
  return issueRefund(ctx, invoiceId, invoice.fields.customerId, { ...refund, paymentId, providerRefundId });
}

async function issueRefund(ctx: CommandContext, invoiceId: string, customerId: string, refund: StaffRefund): Promise<RecordedRefund> {
  const recorded = await recordStaffRefund(ctx, invoiceId, refund);
  const data = recorded.events[0]?.type === 'payment_refund_issued' ? recorded.events[0].data : await recordedRefund(ctx, invoiceId, refund.refundId);
  if (!data) throw new Error(`Refund ${refund.refundId} was not recorded`);
  let position = recorded.position;
  // A reopened invoice past its due date makes the renter overdue, as the billing run would.
  if (data.invoiceStatus === 'overdue') {
    position = (await markCustomerOverdue(ctx, customerId, `A payment on an overdue invoice was refunded`)).position ?? position;
  }
  return answer(data, position);
}

/** What a run of finishPendingRefunds did. */
export interface PendingRefundsRun {
  checked: number;
  issued: number;
  failures: Array<{ refundId: string; error: string }>;
  position: Position | null;
}

const PendingRow = z.object({ id: z.string(), invoice_id: z.string(), refund_of: z.string() });

/** At most this many pending refunds a run, the least recently tried first; the next run goes on. */
const PENDING_BATCH = 100;

/**
 * Finishes every card refund requested more than `graceMs` before `now` and not yet issued (a
 * crash or a provider refusal between the request and its record), through the same steps as a
 * repeat of the request. Found through the read model (a refund row of status 'pending'); the
 * invoice's stream has the last word, so a refund issued meanwhile records nothing twice. A
 * failure stays pending with its reason in refund_attempts.last_error and is retried next run.
 */
export async function finishPendingRefunds(deps: { pool: DatabasePool; store: EventStore; provider: PaymentProvider }, now: Date, graceMs: number) {
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const rows = await deps.pool.any(sql.type(PendingRow)`
    SELECT p.id::text, p.invoice_id::text, p.refund_of::text FROM payments p
    LEFT JOIN refund_attempts a ON a.refund_id = p.id
    WHERE p.status = 'pending' AND p.refund_of IS NOT NULL AND p.invoice_id IS NOT NULL
      AND p.created_at < ${cutoff}::timestamptz + interval '1 millisecond'
    ORDER BY a.checked_at NULLS FIRST, p.created_at
    LIMIT ${PENDING_BATCH}`);
  const run: PendingRefundsRun = { checked: 0, issued: 0, failures: [], position: null };
  for (const row of rows) {
    run.checked++;
    let error: string | null = null;
    try {
      const { state: invoice } = await loadAggregate(deps.store, streams.invoice(row.invoice_id), invoiceAggregate);
      if (invoice.status !== 'current') throw new Error(`Invoice ${row.invoice_id} not found`);
      const pending = invoice.payments.find((p) => p.paymentId === row.refund_of)?.pendingRefunds.find((r) => r.refundId === row.id);
      // Issued meanwhile (the projection has not caught up): nothing to do.
      if (pending) {
        const issued = await finishRefund(ctx, deps.provider, row.invoice_id, row.refund_of, pending);
        if (issued.position) run.position = issued.position;
        run.issued++;
      }
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      run.failures.push({ refundId: row.id, error });
    }
    await deps.pool.query(sql.unsafe`
      INSERT INTO refund_attempts (refund_id, checked_at, attempts, last_error) VALUES (${row.id}, ${now.toISOString()}::timestamptz, 1, ${error})
      ON CONFLICT (refund_id) DO UPDATE SET checked_at = excluded.checked_at, attempts = refund_attempts.attempts + 1, last_error = excluded.last_error`);
  }
  return run;
}

/** Hands back credit on the renter's account (never more than they have), with a reason. */
export async function refundAccountCredit(
  ctx: CommandContext,
  customerId: string,
  request: { amount: string; method: DeskPaymentMethod; reference: string | null; reason: string },
  refundId: string = randomUUID(),
) {
  await requireCurrentCustomer(ctx, customerId);
  const refunded = await refundCredit(ctx, customerId, { refundId, ...request });
  return { refundId, position: refunded.position };
}
