import type { AutopayCharge, PaymentProfile, SavedCard } from '@storage/contracts/autopay';
import type { PaymentProviderName } from '@storage/contracts/payments';
import { BUSINESS_SETTINGS_SCOPE, defaultSettings } from '@storage/contracts/settings';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const CardRow = z.object({ id: z.string(), brand: z.string(), last4: z.string(), exp_month: z.number(), exp_year: z.number(), autopay: z.boolean() });
const ChargeRow = z.object({
  invoice_id: z.string(),
  attempt: z.number(),
  amount: z.string(),
  date: z.string(),
  status: z.enum(['attempted', 'succeeded', 'failed']),
  reason: z.string().nullable(),
  requires_action: z.boolean(),
  next_attempt_on: z.string().nullable(),
  invoice_open: z.boolean(),
});

/** A renter's saved cards (newest first), whether autopay is on, and the latest autopay charge of each invoice. */
export async function paymentProfileOf(pool: DatabasePool, customerId: string, provider: PaymentProviderName): Promise<PaymentProfile> {
  const [cards, enrolled, automaticCharging, charges] = await Promise.all([
    pool.any(sql.type(CardRow)`
      SELECT m.id::text, m.brand, m.last4, m.exp_month, m.exp_year, coalesce(e.enabled AND e.payment_method_id = m.id, false) AS autopay
      FROM payment_methods m LEFT JOIN autopay_enrollments e ON e.customer_id = m.customer_id
      WHERE m.customer_id = ${customerId} AND NOT m.removed
      ORDER BY m.created_at DESC, m.id`),
    pool.maybeOneFirst(sql.type(z.object({ enabled: z.boolean() }))`SELECT enabled FROM autopay_enrollments WHERE customer_id = ${customerId}`),
    pool.maybeOneFirst(
      sql.type(z.object({ automatic_charging: z.boolean() }))`SELECT automatic_charging FROM settings WHERE scope = ${BUSINESS_SETTINGS_SCOPE}`,
    ),
    pool.any(sql.type(ChargeRow)`
      SELECT c.invoice_id::text, c.attempt, c.amount::text, c.date::text, c.status, c.reason, c.requires_action, c.next_attempt_on::text,
             coalesce(i.status IN ('sent', 'overdue'), false) AS invoice_open
      FROM autopay_charges c LEFT JOIN invoices i ON i.id = c.invoice_id
      WHERE c.customer_id = ${customerId} ORDER BY c.date DESC, c.updated_at DESC LIMIT 12`),
  ]);
  return {
    cards: cards.map((c): SavedCard => ({ id: c.id, brand: c.brand, last4: c.last4, expMonth: c.exp_month, expYear: c.exp_year, autopay: c.autopay })),
    autopay: enrolled ?? false,
    // No settings row yet: the product's default (on).
    automaticCharging: automaticCharging ?? defaultSettings.payments.automaticCharging,
    provider,
    charges: charges.map(
      (c): AutopayCharge => ({
        invoiceId: c.invoice_id,
        attempt: c.attempt,
        amount: c.amount,
        date: c.date,
        status: c.status,
        reason: c.reason,
        requiresAction: c.requires_action,
        nextAttemptOn: c.next_attempt_on,
        invoiceOpen: c.invoice_open,
      }),
    ),
  };
}
