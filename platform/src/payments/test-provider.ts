import { randomBytes } from 'node:crypto';
import { toCents } from '@storage/contracts/money';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { PAYMENT_CURRENCY, type PaymentProvider, type ProviderPaymentIntent } from './provider.ts';

// The built-in card provider, for when no Stripe keys are configured: its intents live in our
// database, its card form is our own, and it answers with Stripe's test cards and messages.

const SUCCEEDING_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';

export const cardMessages = {
  declined: 'Your card was declined.',
  invalidNumber: 'Your card number is invalid.',
  invalidExpiry: "Your card's expiration date is invalid.",
  expired: "Your card's expiration date is in the past.",
  invalidCvc: "Your card's security code is invalid.",
};

export interface Card {
  cardNumber: string;
  /** MM/YY or MM/YYYY */
  expiry: string;
  cvc: string;
}

/** What the provider makes of a card on `today`: null when it pays, else its message. */
export function cardRefusal(card: Card, today: Date): string | null {
  const number = card.cardNumber.replace(/[\s-]/g, '');
  if (number !== SUCCEEDING_CARD && number !== DECLINED_CARD) return cardMessages.invalidNumber;
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(card.expiry.trim());
  if (!expiry) return cardMessages.invalidExpiry;
  const month = Number(expiry[1]);
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (month < 1 || month > 12) return cardMessages.invalidExpiry;
  if (year * 12 + month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return cardMessages.expired;
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return cardMessages.invalidCvc;
  if (number === DECLINED_CARD) return cardMessages.declined;
  return null;
}

const IntentRow = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.string(),
  currency: z.string(),
  invoice_id: z.string().nullable(),
  customer_id: z.string(),
  last_error: z.string().nullable(),
  client_secret: z.string(),
});
type IntentRow = z.infer<typeof IntentRow>;

const intentColumns = sql.fragment`id, status, amount::text, currency, invoice_id::text, customer_id::text, last_error, client_secret`;

function toProviderIntent(row: IntentRow): ProviderPaymentIntent {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    invoiceId: row.invoice_id,
    customerId: row.customer_id,
    clientSecret: row.client_secret,
  };
}

export type ConfirmOutcome =
  | { status: 'succeeded'; error: null }
  | { status: 'requires_payment_method'; error: { message: string } }
  | { status: 'already_succeeded' }
  | { status: 'canceled' }
  | { status: 'unknown' };

export interface TestPaymentProvider extends PaymentProvider {
  /** The card form's submit: pays the intent, or leaves it payable with the provider's message. */
  confirmIntent(id: string, card: Card, today: Date): Promise<ConfirmOutcome>;
}

/**
 * Test-only fault injection, per provider instance: a test makes a call fail as a network error
 * or an outage at the provider would. The configured provider never has any.
 */
export interface TestProviderFaults {
  /** Called before a refund is made; what it throws fails the refund call, and nothing is refunded. */
  beforeRefund?(intentId: string): void;
}

export function createTestProvider(pool: DatabasePool, faults: TestProviderFaults = {}): TestPaymentProvider {
  async function retrieveIntent(id: string) {
    const row = await pool.maybeOne(sql.type(IntentRow)`SELECT ${intentColumns} FROM test_payment_intents WHERE id = ${id}`);
    return row ? toProviderIntent(row) : null;
  }
  return {
    name: 'test',
    publishableKey: null,
    async createIntent(intent) {
      const id = `pi_test_${randomBytes(12).toString('hex')}`;
      const clientSecret = `${id}_secret_${randomBytes(16).toString('hex')}`;
      await pool.query(sql.unsafe`
        INSERT INTO test_payment_intents (id, client_secret, amount, currency, status, invoice_id, customer_id, customer_email)
        VALUES (${id}, ${clientSecret}, ${intent.amount}, ${PAYMENT_CURRENCY}, 'requires_payment_method',
                ${intent.invoiceId}, ${intent.customerId}, ${intent.customerEmail})`);
      return { id, clientSecret };
    },
    retrieveIntent,
    async confirmIntent(id, card, today) {
      const refusal = cardRefusal(card, today);
      // Only a payable intent changes: of two racing confirmations, one pays.
      const changed = await pool.maybeOne(sql.type(z.object({ id: z.string() }))`
        UPDATE test_payment_intents
        SET status = ${refusal ? 'requires_payment_method' : 'succeeded'}, last_error = ${refusal}, updated_at = now()
        WHERE id = ${id} AND status = 'requires_payment_method'
        RETURNING id`);
      if (changed) return refusal ? { status: 'requires_payment_method', error: { message: refusal } } : { status: 'succeeded', error: null };
      const intent = await retrieveIntent(id);
      if (!intent) return { status: 'unknown' };
      return intent.status === 'canceled' ? { status: 'canceled' } : { status: 'already_succeeded' };
    },
    async cancelIntent(id) {
      const changed = await pool.maybeOne(sql.type(z.object({ id: z.string() }))`
        UPDATE test_payment_intents SET status = 'canceled', updated_at = now()
        WHERE id = ${id} AND status = 'requires_payment_method' RETURNING id`);
      if (changed) return;
      const intent = await retrieveIntent(id);
      if (intent?.status !== 'canceled') throw new Error(`Payment intent ${id} cannot be cancelled: it is ${intent?.status ?? 'unknown'}`);
    },
    async refund(intentId, amount, idempotencyKey) {
      faults.beforeRefund?.(intentId);
      const intent = await retrieveIntent(intentId);
      if (intent?.status !== 'succeeded') throw new Error(`Payment intent ${intentId} has no charge to refund`);
      // As Stripe does, never more in all than the charge (a repeat of a key is the refund it made).
      const before = await pool.oneFirst(sql.type(z.object({ total: z.string() }))`
        SELECT coalesce(sum(amount), 0)::text AS total FROM test_payment_refunds
        WHERE payment_intent_id = ${intentId} AND idempotency_key <> ${idempotencyKey}`);
      if (toCents(amount) <= 0n || toCents(before) + toCents(amount) > toCents(intent.amount)) throw new Error(`Cannot refund ${amount} of ${intent.amount}`);
      // The key makes a repeated refund the first one, as Stripe's idempotency keys do.
      await pool.query(sql.unsafe`
        INSERT INTO test_payment_refunds (id, payment_intent_id, amount, idempotency_key)
        VALUES (${`re_test_${randomBytes(12).toString('hex')}`}, ${intentId}, ${amount}, ${idempotencyKey})
        ON CONFLICT (idempotency_key) DO NOTHING`);
      const id = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`
        SELECT id FROM test_payment_refunds WHERE idempotency_key = ${idempotencyKey}`);
      return { id };
    },
  };
}
