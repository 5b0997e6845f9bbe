import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { PAYMENT_CURRENCY, type PaymentProvider, refundKeyOf } from '@storage/platform/payments/provider';
import type { DatabasePool } from 'slonik';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, loadAggregate } from '../commands/handle.ts';
import { cardChargeOutcome } from '../invoices/businessLogic.ts';
import { afterPaymentRecorded, recordPayment, recordRefund } from '../invoices/commands.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { finishPaidRental } from '../reservations/online-rental.ts';
import { recordPortalPayment } from './desk.ts';
import { markIntentSettled, rentalOfIntent } from './intents.ts';

/** What a caller claims about a payment; only the intent id is taken on trust, the rest is checked. */
export interface PaymentReport {
  paymentIntentId: string;
  invoiceId?: string | undefined;
  customerId?: string | undefined;
  /** The customer whose portal session sent the report, if any. */
  reportedBy?: string | undefined;
}

export interface RecordedIntent {
  paymentIntentId: string;
  /** Null for a payment toward the whole balance (spread over the open invoices). */
  invoiceId: string | null;
  /** False when the intent's payment was already on the invoice (a replayed report), or refunded. */
  recorded: boolean;
  /** True when the invoice could not take the charge (already paid, or cancelled), so it was refunded. */
  refunded: boolean;
  /** The last event appended, for read-your-writes; null when nothing was. */
  position: Position | null;
}

/**
 * Records the payment of a succeeded intent on its invoice (or, for an intent toward the whole
 * balance, over the open invoices: recordPortalPayment), as the provider (never the caller)
 * tells it. The invoice stream's revision makes it once per intent: a replay, or a replay racing
 * the first report, finds the invoice paid by this very intent and appends nothing. A charge the
 * invoice cannot take (paid by another intent or method, cancelled, or not its open balance) is refunded through the
 * provider and recorded as payment_refunded, once however often it is reported.
 */
export async function recordIntentPayment(ctx: CommandContext, pool: DatabasePool, provider: PaymentProvider, report: PaymentReport): Promise<RecordedIntent> {
  const intent = await provider.retrieveIntent(report.paymentIntentId);
  if (!intent) throw new NotFoundError('Payment intent not found');
  if (!intent.customerId) throw new DomainRuleError('paymentIntentId: This payment is not for an invoice', 'paymentIntentId');
  if (report.invoiceId !== undefined && report.invoiceId !== intent.invoiceId) {
    throw new DomainRuleError('invoiceId: The payment is for another invoice', 'invoiceId');
  }
  if (report.customerId !== undefined && report.customerId !== intent.customerId) {
    throw new DomainRuleError('customerId: The payment is for another customer', 'customerId');
  }
  if (intent.status !== 'succeeded') throw new ConflictError(`The payment has not succeeded (the provider reports it ${intent.status})`);
  if (intent.currency !== PAYMENT_CURRENCY) throw new DomainRuleError(`The payment is in ${intent.currency}, not ${PAYMENT_CURRENCY}`);

  // The payment is the renter's own act when their portal session reports it; otherwise the system's.
  const payCtx: CommandContext = report.reportedBy === intent.customerId ? { ...ctx, actor: { type: 'customer', id: intent.customerId } } : ctx;
  const invoiceId = intent.invoiceId;
  if (invoiceId === null) {
    // A payment toward the whole balance: the server spreads it over the open invoices.
    const receipt = await recordPortalPayment(payCtx, { paymentIntentId: intent.id, customerId: intent.customerId, amount: intent.amount });
    await markIntentSettled(pool, intent.id);
    return { paymentIntentId: intent.id, invoiceId: null, recorded: receipt.planned, refunded: false, position: receipt.position };
  }
  // An online rental's payment is made before its lease and invoice: it moves the renter in first,
  // or (the rental can no longer be made) was refunded.
  const rental = await rentalOfIntent(pool, intent.id);
  if (rental !== null) {
    const paid = await finishPaidRental(payCtx, { pool, provider }, rental, intent);
    if (paid.kind === 'refunded') return { paymentIntentId: intent.id, invoiceId, recorded: false, refunded: true, position: null };
  }
  for (let attempt = 0; ; attempt++) {
    const { state: invoice } = await loadAggregate(payCtx.store, streams.invoice(invoiceId), invoiceAggregate);
    if (invoice.status === 'none') throw new NotFoundError('Invoice not found');
    if (invoice.fields.customerId !== intent.customerId) throw new DomainRuleError('The payment names another customer than its invoice');
    const outcome = cardChargeOutcome(invoice, intent.id, intent.amount);
    if (outcome.kind === 'done' && invoice.refundedIntentIds.includes(intent.id)) {
      await markIntentSettled(pool, intent.id);
      return { paymentIntentId: intent.id, invoiceId, recorded: false, refunded: true, position: null };
    }
    if (outcome.kind === 'refund') {
      // The invoice cannot take this charge (paid by another, or cancelled): the money goes back.
      // The provider's idempotency key makes every replay and race the one refund; the invoice
      // stream's revision records it once.
      const refund = await provider.refund(intent.id, intent.amount, refundKeyOf(intent.id));
      const recorded = await recordRefund(ctx, invoiceId, {
        amount: intent.amount,
        stripePaymentIntentId: intent.id,
        refundId: refund.id,
        reason: outcome.reason,
      });
      await markIntentSettled(pool, intent.id);
      return { paymentIntentId: intent.id, invoiceId, recorded: false, refunded: true, position: recorded.position };
    }
    let payment: Awaited<ReturnType<typeof recordPayment>>;
    try {
      // recordPayment refuses an amount other than the invoice's open balance.
      payment = await recordPayment(payCtx, invoiceId, { amount: intent.amount, method: 'card', stripePaymentIntentId: intent.id });
    } catch (error) {
      // Another payment won the race for the invoice: look again, this charge is then refunded.
      if (error instanceof ConflictError && attempt === 0) continue;
      throw error;
    }
    await markIntentSettled(pool, intent.id);
    // Also on a replay: it heals a report that crashed between the payment and the standing.
    const standing = await afterPaymentRecorded(payCtx, intent.customerId);
    return {
      paymentIntentId: intent.id,
      invoiceId,
      recorded: payment.events.length > 0,
      refunded: false,
      position: standing?.position ?? payment.position,
    };
  }
}
