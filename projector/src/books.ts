import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

// The books' invariants, over the read model of a live install: what must hold after any sequence
// of commands, whatever the renters, the staff and the billing days did. `npm run ops -- books:check`
// prints each break (exit 1) for operators and CI; the model-based test asserts them after every
// step of generated command sequences.

export type BookRule =
  /** The renter's ledger balance is what their open invoices still owe less the credit on their account. */
  | 'ledger-balance'
  /** The report totals' balance of the renter (aging, the rent roll) is the ledger's. */
  | 'report-balance'
  /** An invoice paid in full has payments that add up to it; an open one was never paid past its amount. */
  | 'invoice-payments'
  /**
   * What an invoice owes by its history (its ledger entries and the account credit it took) is
   * what it owes now: the reports as of an earlier day read that history.
   */
  | 'invoice-history'
  /** A unit is occupied exactly when an active lease holds it. */
  | 'unit-occupancy'
  /** No projection is failing: the read model shows the whole history. */
  | 'read-model';

export interface BookBreak {
  rule: BookRule;
  /** Whom or what it is about, in words (a renter's name and id, an invoice's number, a unit, a projection). */
  subject: string;
  detail: string;
}

const Break = z.object({ subject: z.string(), detail: z.string() });

const renter = sql.fragment`c.first_name || ' ' || c.last_name || ' (' || c.id::text || ')'`;

const queries: Array<[BookRule, ReturnType<typeof sql.fragment>]> = [
  [
    'ledger-balance',
    sql.fragment`
      SELECT ${renter} AS subject,
             'ledger ' || x.ledger::numeric(20, 2)::text || ', open invoices ' || x.open::numeric(20, 2)::text
               || ' less credit ' || c.credit_balance::text AS detail
      FROM customers c
      CROSS JOIN LATERAL (
        SELECT coalesce((SELECT sum(l.amount) FROM ledger_entries l WHERE l.customer_id = c.id), 0) AS ledger,
               coalesce((SELECT sum(i.amount - i.amount_paid) FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue')), 0) AS open
      ) x
      WHERE x.ledger <> x.open - c.credit_balance
      ORDER BY c.last_name, c.first_name, c.id`,
  ],
  [
    'report-balance',
    sql.fragment`
      SELECT ${renter} AS subject,
             'report totals ' || coalesce(b.balance, 0)::numeric(20, 2)::text || ', ledger ' || x.ledger::numeric(20, 2)::text AS detail
      FROM customers c
      LEFT JOIN customer_balances b ON b.customer_id = c.id
      CROSS JOIN LATERAL (SELECT coalesce((SELECT sum(l.amount) FROM ledger_entries l WHERE l.customer_id = c.id), 0) AS ledger) x
      WHERE coalesce(b.balance, 0) <> x.ledger
      ORDER BY c.last_name, c.first_name, c.id`,
  ],
  [
    'invoice-payments',
    sql.fragment`
      SELECT 'invoice ' || i.invoice_number || ' (' || i.id::text || ')' AS subject,
             i.status || ', amount ' || i.amount::text || ', paid ' || i.amount_paid::text
               || ', payments less refunds ' || coalesce(p.net, 0)::numeric(20, 2)::text AS detail
      FROM invoices i
      -- The payments that counted (not a refund's own row, nor a charge given back because the invoice could not take it).
      LEFT JOIN LATERAL (
        SELECT sum(amount - amount_refunded) AS net FROM payments WHERE invoice_id = i.id AND refund_of IS NULL AND status = 'completed'
      ) p ON true
      WHERE (i.status = 'paid' AND (i.amount_paid <> i.amount OR coalesce(p.net, 0) <> i.amount))
         OR (i.status IN ('sent', 'overdue', 'draft') AND i.amount_paid > i.amount)
         OR i.amount_paid <> coalesce(p.net, 0)
      ORDER BY i.invoice_number, i.id`,
  ],
  [
    'invoice-history',
    sql.fragment`
      SELECT 'invoice ' || i.invoice_number || ' (' || i.id::text || ')' AS subject,
             i.status || ', owes ' || x.owes::numeric(20, 2)::text || ', by its history ' || x.history::numeric(20, 2)::text AS detail
      FROM invoices i
      CROSS JOIN LATERAL (
        SELECT CASE WHEN i.status IN ('sent', 'overdue') THEN i.amount - i.amount_paid ELSE 0 END AS owes,
               coalesce((SELECT sum(l.amount) FROM ledger_entries l WHERE l.invoice_id = i.id), 0)
                 - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id AND p.method = 'account_credit' AND p.refund_of IS NULL), 0) AS history
      ) x
      WHERE x.owes <> x.history
      ORDER BY i.invoice_number, i.id`,
  ],
  [
    'unit-occupancy',
    sql.fragment`
      SELECT 'unit ' || u.unit_number || ' (' || u.id::text || ')' AS subject,
             u.status || ' with ' || (SELECT count(*) FROM leases l WHERE l.unit_id = u.id AND l.is_active)::text || ' active leases' AS detail
      FROM units u
      WHERE (u.status = 'occupied') <> EXISTS (SELECT 1 FROM leases l WHERE l.unit_id = u.id AND l.is_active)
         OR (SELECT count(*) FROM leases l WHERE l.unit_id = u.id AND l.is_active) > 1
      ORDER BY u.unit_number, u.id`,
  ],
  [
    'read-model',
    sql.fragment`
      SELECT 'projection ' || f.projection AS subject,
             'failing on event ' || f.event_id || ' (' || f.event_type || ') since ' || f.first_failed_at::text || ': ' || f.error AS detail
      FROM projection_failures f ORDER BY f.projection`,
  ],
];

/** Every break of the books' invariants, rule by rule; none when the books hold. */
export async function checkBooks(db: CommonQueryMethods): Promise<BookBreak[]> {
  const found: BookBreak[] = [];
  for (const [rule, query] of queries) {
    for (const row of await db.any(sql.type(Break)`${query}`)) found.push({ rule, ...row });
  }
  return found;
}
