-- The metrics projection counted money of its own (revenue, payments, the outstanding balance,
-- from a copy of every invoice in metrics_invoices) that nothing read: the dashboard and the
-- reports take money from the ledger and its totals. A second derivation of the same figures is a
-- second place for them to disagree, so it goes.
DROP TABLE metrics_invoices;
ALTER TABLE metrics_daily DROP COLUMN revenue_cents, DROP COLUMN payments, DROP COLUMN outstanding_cents_change;
