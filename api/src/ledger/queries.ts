import { DEFAULT_TIME_ZONE } from '@storage/contracts/billing';
import type { Ledger, LedgerEntryKind } from '@storage/contracts/ledger';
import { todayIn } from '@storage/domain/billing/calendar';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

const LedgerCustomerRow = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  address: z.string().nullable(),
  time_zone: z.string().nullable(),
});

const EntryRow = z.object({
  id: z.string(),
  date: z.string(),
  kind: z.string(),
  description: z.string(),
  invoice_number: z.string().nullable(),
  amount: z.string(),
  balance: z.string(),
});

/**
 * The customer's ledger as of `asOf` (default: today in their facility's zone): every entry up to
 * that day, in the order recorded, each with the balance after it (a running sum in SQL). With
 * `from`, entries before it are summed into the opening balance instead of listed.
 * Null when there is no such customer.
 */
export async function customerLedger(
  db: CommonQueryMethods,
  customerId: string,
  query: { asOf?: string | undefined; from?: string | undefined },
  now = new Date(),
): Promise<Ledger | null> {
  const customer = await db.maybeOne(sql.type(LedgerCustomerRow)`
    SELECT c.id::text, c.first_name, c.last_name, c.address, f.time_zone
    FROM customers c LEFT JOIN facilities f ON f.id = c.facility_id
    WHERE c.id = ${customerId} AND NOT c.archived`);
  if (!customer) return null;
  const asOf = query.asOf ?? todayIn(customer.time_zone ?? DEFAULT_TIME_ZONE, now);
  const from = query.from ?? null;
  const entries = await db.any(sql.type(EntryRow)`
    WITH running AS (
      SELECT id, entry_date, position, kind, description, invoice_number, amount,
             sum(amount) OVER (ORDER BY entry_date, position, id ROWS UNBOUNDED PRECEDING) AS balance
      FROM ledger_entries
      WHERE customer_id = ${customerId} AND entry_date <= ${asOf}::date
    )
    SELECT id::text, entry_date::text AS date, kind, description, invoice_number, amount::text, balance::numeric(20, 2)::text AS balance
    FROM running
    WHERE ${from}::date IS NULL OR entry_date >= ${from}::date
    ORDER BY entry_date, position, id`);
  const totals = await db.one(sql.type(z.object({ opening: z.string(), balance: z.string() }))`
    SELECT coalesce(sum(amount) FILTER (WHERE ${from}::date IS NOT NULL AND entry_date < ${from}::date), 0)::numeric(20, 2)::text AS opening,
           coalesce(sum(amount), 0)::numeric(20, 2)::text AS balance
    FROM ledger_entries
    WHERE customer_id = ${customerId} AND entry_date <= ${asOf}::date`);
  return {
    customer: { id: customer.id, firstName: customer.first_name, lastName: customer.last_name, address: customer.address },
    asOf,
    from,
    openingBalance: totals.opening,
    entries: entries.map((e) => ({
      id: e.id,
      date: e.date,
      kind: e.kind as LedgerEntryKind,
      description: e.description,
      invoiceNumber: e.invoice_number,
      amount: e.amount,
      balance: e.balance,
    })),
    balance: totals.balance,
  };
}
