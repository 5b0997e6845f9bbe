-- Active customers are renters with a lease in effect, which the leases' own dates tell for any
-- day (api/src/dashboard/queries.ts); the metrics projection no longer counts customers by their
-- standing, so what it kept for that goes. Nothing else reads these columns: no rebuild is needed.
ALTER TABLE metrics_daily DROP COLUMN active_customers_change;
ALTER TABLE metrics_customers DROP COLUMN status, DROP COLUMN archived;
