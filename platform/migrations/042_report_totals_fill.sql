-- Fills the report totals (041) from the ledger and the invoices already projected, as the
-- report-totals projection would have made them, and starts its checkpoint where the ledger's is
-- (they are applied in one lane): an upgrade needs no rebuild. On a new database there is nothing
-- to fill and no checkpoint yet: the projection starts with the history.

INSERT INTO customer_balances (customer_id, balance)
SELECT customer_id, sum(amount) FROM ledger_entries GROUP BY customer_id;

INSERT INTO lease_rent_periods (key, lease_id, invoice_id, period_start, period_end, counts)
SELECT i.id::text || ':' || x.ord, i.lease_id, i.id, (x.line->>'periodStart')::date, (x.line->>'periodEnd')::date,
       i.status NOT IN ('draft', 'cancelled')
FROM invoices i CROSS JOIN jsonb_array_elements(coalesce(i.lines, '[]'::jsonb)) WITH ORDINALITY AS x(line, ord)
WHERE i.lease_id IS NOT NULL AND x.line->>'kind' IN ('rent', 'prorated_rent')
  AND x.line->>'periodStart' IS NOT NULL AND x.line->>'periodEnd' IS NOT NULL;

-- An invoice's lines are appended, each added line with a charge entry of its own: the lines it
-- had when charged count at its first charge entry, the k-th added line at its (k + 1)-th.
INSERT INTO charge_type_months (key, facility_id, month, entry, line_kind, amount)
WITH charges AS (
  SELECT le.invoice_id, le.entry_date, le.facility_id,
         row_number() OVER (PARTITION BY le.invoice_id ORDER BY le.position, le.id) AS n,
         count(*) OVER (PARTITION BY le.invoice_id) AS entries
  FROM ledger_entries le WHERE le.kind IN ('charge', 'late_fee')
), lines AS (
  SELECT ch.facility_id, to_char(ch.entry_date, 'YYYY-MM') AS month, x.line->>'kind' AS kind, (x.line->>'amount')::numeric AS amount
  FROM invoices i
  CROSS JOIN jsonb_array_elements(coalesce(i.lines, '[]'::jsonb)) WITH ORDINALITY AS x(line, ord)
  JOIN charges ch ON ch.invoice_id = i.id AND ch.n = greatest(1, x.ord - (jsonb_array_length(coalesce(i.lines, '[]'::jsonb)) - ch.entries))
)
SELECT coalesce(facility_id::text, '-') || '|' || month || '|line|' || kind, facility_id, month, 'line', kind, sum(amount)
FROM lines GROUP BY facility_id, month, kind
UNION ALL
SELECT coalesce(facility_id::text, '-') || '|' || to_char(entry_date, 'YYYY-MM') || '|' || kind || '|', facility_id, to_char(entry_date, 'YYYY-MM'),
       kind, NULL, sum(amount)
FROM ledger_entries WHERE kind IN ('void', 'write_off') GROUP BY facility_id, to_char(entry_date, 'YYYY-MM'), kind;

-- Money entries: as the dashboard's isMoneyEntry (api/src/dashboard/queries.ts) says.
INSERT INTO money_months (key, scope, month, revenue, payments)
SELECT s.scope || '|' || to_char(le.entry_date, 'YYYY-MM'), s.scope, to_char(le.entry_date, 'YYYY-MM'), -sum(le.amount),
       count(DISTINCT coalesce(le.receipt_id, le.id)) FILTER (WHERE le.kind <> 'refund')
FROM ledger_entries le CROSS JOIN LATERAL (VALUES (coalesce(le.facility_id::text, '-')), ('*')) AS s(scope)
WHERE le.kind IN ('payment', 'refund') OR le.method IS NOT NULL OR le.receipt_id IS NOT NULL
GROUP BY s.scope, to_char(le.entry_date, 'YYYY-MM');

INSERT INTO money_receipt_months (key, receipt_id)
SELECT DISTINCT s.scope || '|' || to_char(le.entry_date, 'YYYY-MM') || '|' || le.receipt_id, le.receipt_id
FROM ledger_entries le CROSS JOIN LATERAL (VALUES (coalesce(le.facility_id::text, '-')), ('*')) AS s(scope)
WHERE le.receipt_id IS NOT NULL AND le.kind <> 'refund';

INSERT INTO projection_checkpoints (name, position_hi, position_lo, updated_at)
SELECT 'report-totals', position_hi, position_lo, now() FROM projection_checkpoints WHERE name = 'ledger'
ON CONFLICT (name) DO NOTHING;
