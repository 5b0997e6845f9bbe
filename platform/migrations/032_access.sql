-- Access follows the ledger (issue 13): gate codes, what each lock should be and what its gateway
-- says it is, the changes each facility's gateway learns in order, and the attempts it reports.

-- What the lock should be (a lockout overlocks it) and what its gateway last reported; since when
-- the two differ (null: they agree, or nothing was reported yet and the lock should be normal).
ALTER TABLE locks ADD COLUMN desired_state text NOT NULL DEFAULT 'normal';
ALTER TABLE locks ADD COLUMN desired_changed_at timestamptz;
ALTER TABLE locks ADD COLUMN reported_state text;
ALTER TABLE locks ADD COLUMN reported_at timestamptz;
ALTER TABLE locks ADD COLUMN differs_since timestamptz;

-- Each lease's gate code: whether it opens the gate (suspended: why). The code itself is a secret
-- kept only in the gate code's stream (read from there when shown), never in a read table.
CREATE TABLE gate_codes (
  lease_id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  facility_id uuid,
  unit_id uuid,
  status text NOT NULL,
  suspended_reason text,
  assigned_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX gate_codes_customer_idx ON gate_codes (customer_id);

-- What a facility's gateway must learn, numbered per facility in the order of the history: a
-- lock's desired state, or a lease's gate code (active or not; the code is read from its stream
-- when sent). The gateway acknowledges the last number it applied and is sent the ones after it.
CREATE TABLE gateway_changes (
  id uuid PRIMARY KEY,
  facility_id uuid NOT NULL,
  sequence bigint NOT NULL,
  kind text NOT NULL,
  lock_id uuid,
  desired text,
  lease_id uuid,
  active boolean,
  recorded_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX gateway_changes_sequence_idx ON gateway_changes (facility_id, sequence);

-- The last number given to a facility's changes.
CREATE TABLE gateway_sequences (
  facility_id uuid PRIMARY KEY,
  last_sequence bigint NOT NULL
);

-- What the gateways reported: who tried what, granted or denied and why (the code itself is never kept).
CREATE TABLE access_attempts (
  id uuid PRIMARY KEY,
  facility_id uuid NOT NULL,
  lock_id uuid,
  unit_number text,
  lease_id uuid,
  customer_id uuid,
  via text NOT NULL,
  granted boolean NOT NULL,
  reason text NOT NULL,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX access_attempts_customer_idx ON access_attempts (customer_id, attempted_at DESC, id);
CREATE INDEX access_attempts_facility_idx ON access_attempts (facility_id, attempted_at DESC, id);
