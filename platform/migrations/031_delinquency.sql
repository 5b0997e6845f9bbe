-- The delinquency schedule (issue 13): each scope's own schedule on its settings row, and one row
-- per renter the schedule has acted on: where they are, for lists and for the billing day, which
-- nominates the delinquent renters it may clear.

-- The scope's delinquency steps (contracts/src/delinquency.ts DelinquencyStep[]); null: the default, or the business's.
ALTER TABLE settings ADD COLUMN delinquency jsonb;

CREATE TABLE customer_delinquency (
  customer_id uuid PRIMARY KEY,
  facility_id uuid,
  -- Steps taken since the schedule last cleared: > 0 is a delinquent renter.
  steps_since_clear integer NOT NULL,
  last_step_kind text,
  last_step_date date,
  paused_until date,
  pause_reason text,
  updated_at timestamptz NOT NULL
);
CREATE INDEX customer_delinquency_delinquent_idx ON customer_delinquency (facility_id) WHERE steps_since_clear > 0;
