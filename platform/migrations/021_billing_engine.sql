-- The billing engine (domain/src/billing): facility time zones, invoice lines, how far each
-- lease's rent is invoiced, billing settings per scope, and the history of billing runs.

-- The IANA zone a facility's days run in (facilities written before it had one: UTC).
ALTER TABLE facilities ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';

-- An invoice's lines (contracts/src/billing.ts InvoiceLine), in order; their sum is the amount.
ALTER TABLE invoices ADD COLUMN lines jsonb NOT NULL DEFAULT '[]';

-- The last day the lease's rent is invoiced for (null: nothing billed by the engine yet).
ALTER TABLE leases ADD COLUMN billed_through date;

-- The scope's billing settings (the business's, or a facility's own); null: the defaults, or the business's.
ALTER TABLE settings ADD COLUMN billing jsonb;

-- One row per billing run of a facility's day: what it issued, charged and marked, what it skipped and why.
CREATE TABLE billing_runs (
  id uuid PRIMARY KEY,
  facility_id uuid,
  billing_date date NOT NULL,
  ran_at timestamptz NOT NULL,
  invoices_issued integer NOT NULL,
  late_fees_charged integer NOT NULL,
  invoices_overdue integer NOT NULL,
  skipped jsonb NOT NULL
);
CREATE INDEX billing_runs_ran_at_idx ON billing_runs (ran_at DESC, id);
CREATE INDEX billing_runs_facility_idx ON billing_runs (facility_id, ran_at DESC, id);
