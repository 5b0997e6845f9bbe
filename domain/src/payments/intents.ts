import { setTimeout as delay } from 'node:timers/promises';
import { toCents } from '@storage/contracts/money';
import { type NewPaymentIntent, PAYABLE_INTENT_STATUSES, type PaymentProvider, type ProviderPaymentIntent } from '@storage/platform/payments/provider';
import { type DatabaseConnection, type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { ConflictError } from '../commands/errors.ts';

// Our own record of the intents we asked the provider for (table payment_intents): one invoice
// has at most one live intent, so two tabs (or a reload) can never both take money for one bill;
// so has a renter's account, for a payment of an amount of their choosing toward their balance.

const LiveRow = z.object({ id: z.string(), amount: z.string() });
/** How long a creation waits for another one of the same invoice (the provider's calls time out after 10 s). */
const LOCK_WAIT_MS = 30_000;
const LOCK_RETRY_MS = 25;

/** What an intent is for: one invoice, or (invoiceId null) the renter's whole balance. */
export type Payable = Pick<NewPaymentIntent, 'invoiceId' | 'customerId'>;

/** An intent asked for: reservationId names the online rental it pays the move-in invoice of (that invoice does not exist yet). */
export type IntentRequest = NewPaymentIntent & { reservationId?: string };

/** What creating an intent for an invoice (or an account) came to. */
export type IntentForInvoice =
  | { kind: 'intent'; id: string; clientSecret: string; reused: boolean }
  /** The live intent already took the money (its report has not arrived yet): nothing to pay. */
  | { kind: 'succeeded'; intentId: string }
  /** The live intent's payment is under way at the provider: it can be neither reused nor cancelled. */
  | { kind: 'processing'; intentId: string };

/**
 * The payable intent of an invoice (or of the renter's account, invoiceId null) for `intent.amount`: the live one when it is for that amount
 * and the provider still holds it payable, else a new one, after the stale one is cancelled
 * through the provider. Creations for one invoice are serialized (an advisory lock of the
 * connection, released when it ends, also when the process dies), so concurrent calls get one
 * intent; the partial unique index refuses a second live row whatever the code does. No
 * transaction stays open while the provider answers (the Postgres event store reads below those).
 */
export async function intentForInvoice(pool: DatabasePool, provider: PaymentProvider, intent: IntentRequest): Promise<IntentForInvoice> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    // A waiter holds no connection while it waits (many tabs must not drain the pool the lock
    // holder needs), so it tries the lock and sleeps between tries.
    const outcome = await underIntentLock(pool, intent, (connection) => decideIntent(connection, provider, intent));
    if (outcome !== INTENT_BUSY) return outcome;
    if (Date.now() > deadline) {
      throw new ConflictError(`Another payment of this ${intent.invoiceId ? 'invoice' : 'account'} is being prepared; try again in a moment`);
    }
    await delay(LOCK_RETRY_MS);
  }
}

/** What underIntentLock answers when another call holds the lock. */
export const INTENT_BUSY = Symbol('intent busy');

/**
 * Runs `work` holding the lock of the invoice's (or account's) intents (an advisory lock of the
 * connection, released when it ends, also when the process dies), or answers INTENT_BUSY at once
 * when another call holds it. Whatever decides which intent of it is live runs under it.
 */
export async function underIntentLock<T>(
  pool: DatabasePool,
  payable: Payable,
  work: (connection: DatabaseConnection) => Promise<T>,
): Promise<T | typeof INTENT_BUSY> {
  const lockKey = payable.invoiceId ? `payment-intent:${payable.invoiceId}` : `payment-intent:account:${payable.customerId}`;
  return pool.connect(async (connection) => {
    const locked = await connection.oneFirst(sql.type(z.object({ locked: z.boolean() }))`
      SELECT pg_try_advisory_lock(hashtextextended(${lockKey}, 0)) AS locked`);
    if (!locked) return INTENT_BUSY;
    try {
      return await work(connection);
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(hashtextextended(${lockKey}, 0))`);
    }
  });
}

/** Under the invoice's (or account's) lock: the live intent, reused, or replaced. */
async function decideIntent(tx: DatabaseConnection, provider: PaymentProvider, request: IntentRequest): Promise<IntentForInvoice> {
  const { reservationId = null, ...intent } = request;
  const ofPayable = intent.invoiceId ? sql.fragment`invoice_id = ${intent.invoiceId}` : sql.fragment`customer_id = ${intent.customerId} AND invoice_id IS NULL`;
  const live = await tx.maybeOne(sql.type(LiveRow)`
    SELECT id, amount::text FROM payment_intents WHERE ${ofPayable} AND state = 'live'`);
  if (live) {
    const known = await provider.retrieveIntent(live.id);
    if (known?.status === 'succeeded') {
      await markIntent(tx, live.id, 'succeeded');
      return { kind: 'succeeded', intentId: live.id };
    }
    if (known?.status === 'processing') return { kind: 'processing', intentId: live.id };
    if (known && reusable(known, intent.amount)) return { kind: 'intent', id: known.id, clientSecret: known.clientSecret!, reused: true };
    if (known && PAYABLE_INTENT_STATUSES.has(known.status)) {
      // A stale amount: it must never take money once the next intent exists.
      const cancelled = await cancelOrSucceeded(provider, known.id);
      if (cancelled === 'succeeded') {
        await markIntent(tx, live.id, 'succeeded');
        return { kind: 'succeeded', intentId: live.id };
      }
    }
    await markIntent(tx, live.id, 'cancelled');
  }
  const created = await provider.createIntent(intent);
  await tx.query(sql.unsafe`
    INSERT INTO payment_intents (id, provider, invoice_id, customer_id, amount, state, reservation_id)
    VALUES (${created.id}, ${provider.name}, ${intent.invoiceId}, ${intent.customerId}, ${intent.amount}, 'live', ${reservationId})`);
  return { kind: 'intent', id: created.id, clientSecret: created.clientSecret, reused: false };
}

function reusable(known: ProviderPaymentIntent, amount: string): boolean {
  return PAYABLE_INTENT_STATUSES.has(known.status) && known.status !== 'processing' && known.clientSecret !== null && toCents(known.amount) === toCents(amount);
}

/** Cancels through the provider; an intent that took the money meanwhile is not cancelled but reported. */
export async function cancelOrSucceeded(provider: PaymentProvider, id: string): Promise<'cancelled' | 'succeeded'> {
  try {
    await provider.cancelIntent(id);
    return 'cancelled';
  } catch (error) {
    if ((await provider.retrieveIntent(id))?.status === 'succeeded') return 'succeeded';
    throw error;
  }
}

/** Our record of an intent: cancelled (it can never take money), or succeeded (it took money; settled once its payment or refund is recorded). */
export async function markIntent(db: Pick<DatabasePool, 'query'>, id: string, state: 'cancelled' | 'succeeded') {
  await db.query(sql.unsafe`UPDATE payment_intents SET state = ${state}, updated_at = now() WHERE id = ${id}`);
}

/**
 * The intent's charge is recorded on its invoice, as its payment or as refunded: it is no longer
 * the invoice's live intent, and the reconciliation process has nothing left to do with it.
 */
export async function markIntentSettled(pool: DatabasePool, id: string) {
  await pool.query(sql.unsafe`
    UPDATE payment_intents SET state = 'succeeded', settled_at = coalesce(settled_at, now()), last_error = NULL, updated_at = now()
    WHERE id = ${id}`);
}

/** The online rental (its reservation) an intent pays the move-in of; null for an invoice's or an account's payment. */
export async function rentalOfIntent(pool: DatabasePool, id: string): Promise<string | null> {
  return pool.maybeOneFirst(sql.type(z.object({ reservation_id: z.string().nullable() }))`
    SELECT reservation_id::text FROM payment_intents WHERE id = ${id}`);
}
