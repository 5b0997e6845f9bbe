import { randomBytes } from 'node:crypto';
import { toCents } from '@storage/contracts/money';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import {
  CardRefusedError,
  type OffSessionOutcome,
  PAYMENT_CURRENCY,
  type PaymentProvider,
  type ProviderPaymentIntent,
  type SavedCardDetails,
} from './provider.ts';

// The built-in card provider, for when no Stripe keys are configured: its intents live in our
// database, its card form is our own, and it answers with Stripe's test cards and messages.

const SUCCEEDING_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';
/** Saved, then every off-session charge needs the renter (Stripe's 3-D Secure test card). */
const REQUIRES_ACTION_CARD = '4000002500003155';

export const cardMessages = {
  declined: 'Your card was declined.',
  invalidNumber: 'Your card number is invalid.',
  invalidExpiry: "Your card's expiration date is invalid.",
  expired: "Your card's expiration date is in the past.",
  invalidCvc: "Your card's security code is invalid.",
  requiresAction: 'This card needs you to confirm the payment (3-D Secure): please pay in the portal.',
  expiredSaved: 'Your card has expired.',
};

export interface Card {
  cardNumber: string;
  /** MM/YY or MM/YYYY */
  expiry: string;
  cvc: string;
}

/** What the provider makes of a card on `today`: null when it pays, else its message. */
export function cardRefusal(card: Card, today: Date): string | null {
  const read = readCard(card, today, [SUCCEEDING_CARD, DECLINED_CARD]);
  if ('refusal' in read) return read.refusal;
  if (read.number === DECLINED_CARD) return cardMessages.declined;
  return null;
}

type ReadCard = { refusal: string } | { number: string; expMonth: number; expYear: number };

function readCard(card: Card, today: Date, known: readonly string[]): ReadCard {
  const number = card.cardNumber.replace(/[\s-]/g, '');
  if (!known.includes(number)) return { refusal: cardMessages.invalidNumber };
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(card.expiry.trim());
  if (!expiry) return { refusal: cardMessages.invalidExpiry };
  const month = Number(expiry[1]);
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (month < 1 || month > 12) return { refusal: cardMessages.invalidExpiry };
  if (year * 12 + month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) return { refusal: cardMessages.expired };
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return { refusal: cardMessages.invalidCvc };
  return { number, expMonth: month, expYear: year };
}

export type SavedCardBehaviour = 'succeeds' | 'declined' | 'requires_action';

/**
 * A card to save for off-session charges, as the test provider reads it: its behaviour and what
 * may be shown, or the provider's message. All three test numbers save (so a declined or 3-D
 * Secure card can be enrolled, as Stripe's 4000 0000 0000 0341 and 3155 can): the declined one is
 * declined when charged, 3155 needs the renter.
 */
export function cardToSave(card: Card, today: Date): { refusal: string } | { behaviour: SavedCardBehaviour; last4: string; expMonth: number; expYear: number } {
  const read = readCard(card, today, [SUCCEEDING_CARD, DECLINED_CARD, REQUIRES_ACTION_CARD]);
  if ('refusal' in read) return read;
  const behaviour = read.number === DECLINED_CARD ? 'declined' : read.number === REQUIRES_ACTION_CARD ? 'requires_action' : 'succeeds';
  return { behaviour, last4: read.number.slice(-4), expMonth: read.expMonth, expYear: read.expYear };
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
  /** Called before an off-session charge is made: what it throws is a provider that did not answer (nothing charged). */
  beforeCharge?(idempotencyKey: string): void;
  /** Called after an off-session charge is made (or found again by its key): what it throws is a crash after the provider took the money. */
  afterCharge?(idempotencyKey: string): void;
}

const ChargeRow = z.object({ id: z.string(), status: z.string(), last_error: z.string().nullable() });

function chargeOutcome(made: z.infer<typeof ChargeRow>): OffSessionOutcome {
  if (made.status === 'succeeded') return { status: 'succeeded', intentId: made.id };
  if (made.status === 'requires_action') return { status: 'requires_action', intentId: made.id, reason: made.last_error ?? cardMessages.requiresAction };
  return { status: 'failed', intentId: made.id, reason: made.last_error ?? cardMessages.declined };
}

const SavedCardRow = z.object({
  id: z.string(),
  provider_customer_id: z.string(),
  behaviour: z.enum(['succeeds', 'declined', 'requires_action']),
  exp_month: z.number(),
  exp_year: z.number(),
  detached: z.boolean(),
});

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
    async startCardSetup() {
      return { clientSecret: null };
    },
    async saveCard(renter, card, today): Promise<SavedCardDetails> {
      if (!('cardNumber' in card)) throw new CardRefusedError('The test provider saves a card from its card fields');
      const read = cardToSave(card, today);
      if ('refusal' in read) throw new CardRefusedError(read.refusal);
      const id = `pm_test_${randomBytes(12).toString('hex')}`;
      const providerCustomerId = `cus_test_${renter.customerId.replaceAll('-', '')}`;
      await pool.query(sql.unsafe`
        INSERT INTO test_saved_cards (id, provider_customer_id, behaviour, brand, last4, exp_month, exp_year)
        VALUES (${id}, ${providerCustomerId}, ${read.behaviour}, 'visa', ${read.last4}, ${read.expMonth}, ${read.expYear})`);
      return { providerCustomerId, providerPaymentMethodId: id, brand: 'visa', last4: read.last4, expMonth: read.expMonth, expYear: read.expYear };
    },
    async removeCard(providerPaymentMethodId) {
      await pool.query(sql.unsafe`UPDATE test_saved_cards SET detached = true WHERE id = ${providerPaymentMethodId}`);
    },
    async chargeSavedCard(charge): Promise<OffSessionOutcome> {
      faults.beforeCharge?.(charge.idempotencyKey);
      const card = await pool.maybeOne(sql.type(SavedCardRow)`
        SELECT id, provider_customer_id, behaviour, exp_month, exp_year, detached FROM test_saved_cards WHERE id = ${charge.providerPaymentMethodId}`);
      // As a provider answers: the card's behaviour, or why it cannot be charged at all.
      let status: 'succeeded' | 'requires_payment_method' | 'requires_action' = 'requires_payment_method';
      let error: string | null = null;
      if (!card || card.detached || card.provider_customer_id !== charge.providerCustomerId) error = 'The saved card is no longer available.';
      else if (card.exp_year * 12 + card.exp_month < new Date().getUTCFullYear() * 12 + new Date().getUTCMonth() + 1) error = cardMessages.expiredSaved;
      else if (card.behaviour === 'declined') error = cardMessages.declined;
      else if (card.behaviour === 'requires_action') {
        status = 'requires_action';
        error = cardMessages.requiresAction;
      } else status = 'succeeded';
      const id = `pi_test_${randomBytes(12).toString('hex')}`;
      // The key makes a repeated charge the first one, whatever its outcome was (Stripe's idempotency keys do so).
      await pool.query(sql.unsafe`
        INSERT INTO test_payment_intents (id, client_secret, amount, currency, status, invoice_id, customer_id, customer_email, last_error, idempotency_key, payment_method_id)
        VALUES (${id}, ${`${id}_secret_${randomBytes(16).toString('hex')}`}, ${charge.amount}, ${PAYMENT_CURRENCY}, ${status},
                ${charge.invoiceId}, ${charge.customerId}, '', ${error}, ${charge.idempotencyKey}, ${charge.providerPaymentMethodId})
        ON CONFLICT (idempotency_key) DO NOTHING`);
      const made = await pool.one(sql.type(ChargeRow)`
        SELECT id, status, last_error FROM test_payment_intents WHERE idempotency_key = ${charge.idempotencyKey}`);
      faults.afterCharge?.(charge.idempotencyKey);
      return chargeOutcome(made);
    },
    async findSavedCardCharge(idempotencyKey) {
      const made = await pool.maybeOne(sql.type(ChargeRow)`SELECT id, status, last_error FROM test_payment_intents WHERE idempotency_key = ${idempotencyKey}`);
      return made ? chargeOutcome(made) : null;
    },
  };
}
