import { PaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { toCents } from '@storage/contracts/money';
import {
  PORTAL_PAYMENTS_SHOWN,
  type PortalPayment,
  PortalPaymentApplied,
  type PortalPaymentStatus,
  paymentReceiptPath,
  portalPaymentStatusLabels,
} from '@storage/contracts/payments';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

// A renter's payments, read from their ledger alone: the entries of one payment share its desk or
// portal receipt (a payment over several invoices, and the part kept as credit), or are the one
// entry of a payment of one invoice; a refund staff gave names the payment it gives back. Money
// the renter did not pay (a staff credit, credit paying an invoice) is not a payment of theirs.

const PaymentRow = z.object({
  id: z.string(),
  paid_date: z.string(),
  amount: z.string(),
  credited: z.string(),
  refunded: z.string(),
  method: PaymentMethod.nullable(),
  applied: z.array(PortalPaymentApplied),
});

/** The key every entry of one payment shares. */
const paymentKey = sql.fragment`coalesce(le.receipt_id, le.payment_id, le.id)`;

async function readPayments(db: CommonQueryMethods, customerId: string, only: { paymentId: string } | { limit: number }): Promise<PortalPayment[]> {
  const rows = await db.any(sql.type(PaymentRow)`
    WITH entries AS (
      SELECT ${paymentKey} AS key, le.kind, le.entry_date, le.position, le.amount, le.method, le.payment_id,
             le.invoice_id, le.invoice_number, i.description
      FROM ledger_entries le LEFT JOIN invoices i ON i.id = le.invoice_id
      WHERE le.customer_id = ${customerId} AND (le.kind = 'payment' OR (le.kind = 'credit' AND le.receipt_id IS NOT NULL))
        ${'paymentId' in only ? sql.fragment`AND ${paymentKey} = ${only.paymentId}::uuid` : sql.fragment``}
    ),
    payments AS (
      SELECT key, min(entry_date) AS paid_date, max(position) AS position,
             (-sum(amount))::numeric(20, 2)::text AS amount,
             (-coalesce(sum(amount) FILTER (WHERE kind = 'credit'), 0))::numeric(20, 2)::text AS credited,
             (array_agg(method ORDER BY position) FILTER (WHERE method IS NOT NULL))[1] AS method,
             coalesce(jsonb_agg(jsonb_build_object(
               'invoiceId', invoice_id, 'invoiceNumber', coalesce(invoice_number, ''), 'description', description,
               'amount', (-amount)::numeric(20, 2)::text
             ) ORDER BY position) FILTER (WHERE kind = 'payment'), '[]'::jsonb) AS applied,
             array_agg(payment_id) FILTER (WHERE payment_id IS NOT NULL) AS payment_ids
      FROM entries GROUP BY key
      ORDER BY paid_date DESC, position DESC
      LIMIT ${'limit' in only ? only.limit : 1}
    )
    SELECT p.key::text AS id, p.paid_date::text AS paid_date, p.amount, p.credited, p.method, p.applied,
           coalesce((SELECT sum(r.amount) FROM ledger_entries r
                     WHERE r.customer_id = ${customerId} AND r.kind = 'refund' AND r.payment_id = ANY(p.payment_ids)), 0)::numeric(20, 2)::text AS refunded
    FROM payments p
    ORDER BY p.paid_date DESC, p.position DESC`);
  return rows.map((r) => {
    const status: PortalPaymentStatus = toCents(r.refunded) === 0n ? 'paid' : toCents(r.refunded) >= toCents(r.amount) ? 'refunded' : 'partly_refunded';
    return {
      id: r.id,
      paidDate: r.paid_date,
      amount: r.amount,
      method: r.method,
      methodLabel: r.method ? paymentMethodLabels[r.method] : null,
      applied: r.applied,
      credited: r.credited,
      refunded: r.refunded,
      status,
      statusLabel: portalPaymentStatusLabels[status],
      receiptUrl: paymentReceiptPath(r.id),
    };
  });
}

/** The renter's payments, newest first (the PORTAL_PAYMENTS_SHOWN newest). */
export function listPortalPayments(db: CommonQueryMethods, customerId: string): Promise<PortalPayment[]> {
  return readPayments(db, customerId, { limit: PORTAL_PAYMENTS_SHOWN });
}

/** The renter's payment `paymentId`; null when it is not theirs (or no payment at all). */
export async function findPortalPayment(db: CommonQueryMethods, customerId: string, paymentId: string): Promise<PortalPayment | null> {
  return (await readPayments(db, customerId, { paymentId }))[0] ?? null;
}
