import { type InvoiceLineKind, invoiceLineKindLabels, taxedLineKinds } from '@storage/contracts/billing';
import { fromCents, toCents } from '@storage/contracts/money';
import type { SalesTaxReport, SalesTaxRow } from '@storage/contracts/reports';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';
import { inFacility } from '../dashboard/queries.ts';
import { reportDays } from './ledger-reports.ts';

// The sales tax report: per facility and taxable charge kind, what was billed, what of it carried
// tax and the tax, over the invoices issued in a range of days. From the read model: the invoices'
// lines and the day each invoice was first charged on the ledger (its issue day, in the facility's
// zone). The engine writes each tax line right after the line it taxes (a late fee's with it, in
// one append), so a line's tax is the line after it.

const SalesTaxSqlRow = z.object({
  facility_id: z.string().nullable(),
  facility: z.string().nullable(),
  kind: z.string(),
  billed: z.string(),
  taxable: z.string(),
  tax: z.string(),
});

const taxableKinds = Object.keys(taxedLineKinds) as InvoiceLineKind[];

export async function salesTaxReport(
  db: CommonQueryMethods,
  query: { facilityId?: string | undefined; from?: string | undefined; to?: string | undefined },
  now: Date,
): Promise<SalesTaxReport> {
  const { from, to } = await reportDays(db, query, now);
  const rows = await db.any(sql.type(SalesTaxSqlRow)`
    WITH issued AS (
      SELECT le.invoice_id, min(le.entry_date) AS issue_day
      FROM ledger_entries le
      WHERE le.kind = 'charge' AND le.invoice_id IS NOT NULL AND ${inFacility(sql.fragment`le.facility_id`, query.facilityId)}
      GROUP BY le.invoice_id
    ),
    lines AS (
      SELECT i.facility_id, x.line->>'kind' AS kind, (x.line->>'amount')::numeric AS amount,
             lead(x.line->>'kind') OVER w AS next_kind, lead((x.line->>'amount')::numeric) OVER w AS next_amount
      FROM issued
      JOIN invoices i ON i.id = issued.invoice_id
      CROSS JOIN LATERAL jsonb_array_elements(coalesce(i.lines, '[]'::jsonb)) WITH ORDINALITY AS x(line, ord)
      -- A voided invoice's charges (its tax among them) were reversed: it billed nothing.
      WHERE issued.issue_day BETWEEN ${from}::date AND ${to}::date AND i.status <> 'cancelled'
      WINDOW w AS (PARTITION BY i.id ORDER BY x.ord)
    )
    SELECT l.facility_id::text, f.name AS facility, l.kind,
           sum(l.amount)::numeric(20, 2)::text AS billed,
           coalesce(sum(l.amount) FILTER (WHERE l.next_kind = 'tax'), 0)::numeric(20, 2)::text AS taxable,
           coalesce(sum(l.next_amount) FILTER (WHERE l.next_kind = 'tax'), 0)::numeric(20, 2)::text AS tax
    FROM lines l
    LEFT JOIN facilities f ON f.id = l.facility_id
    WHERE l.kind = ANY(${sql.array(taxableKinds, 'text')})
    GROUP BY l.facility_id, f.name, l.kind`);
  const kindOrder = (kind: string) => taxableKinds.indexOf(kind as InvoiceLineKind);
  const out = rows
    .map(
      (r): SalesTaxRow => ({
        facilityId: r.facility_id,
        facility: r.facility,
        kind: r.kind,
        kindLabel: invoiceLineKindLabels[r.kind as InvoiceLineKind] ?? r.kind,
        billed: r.billed,
        taxable: r.taxable,
        tax: r.tax,
      }),
    )
    .sort(
      (a, b) =>
        (a.facility ?? '').localeCompare(b.facility ?? '') || (a.facilityId ?? '').localeCompare(b.facilityId ?? '') || kindOrder(a.kind) - kindOrder(b.kind),
    );
  const sum = (pick: (r: SalesTaxRow) => string) => fromCents(out.reduce((cents, r) => cents + toCents(pick(r)), 0n));
  return { from, to, rows: out, totals: { billed: sum((r) => r.billed), taxable: sum((r) => r.taxable), tax: sum((r) => r.tax) } };
}
