-- Autopay (issue 13): saved cards, enrolment, off-session charges.

-- The built-in test provider's own saved cards (its "server", as test_payment_intents is; not a
-- read-model table: a rebuild leaves it alone). The card number is never kept: only how the
-- provider answers a charge of it, with the brand, last 4 digits and expiry it shows.
CREATE TABLE IF NOT EXISTS test_saved_cards (
  id text PRIMARY KEY,
  provider_customer_id text NOT NULL,
  behaviour text NOT NULL CHECK (behaviour IN ('succeeds', 'declined', 'requires_action')),
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  detached boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Off-session charges of a saved card are intents of the test provider too, found again by the
-- caller's idempotency key (as Stripe answers a repeated key with the first answer).
ALTER TABLE test_payment_intents ADD COLUMN IF NOT EXISTS idempotency_key text UNIQUE;
ALTER TABLE test_payment_intents ADD COLUMN IF NOT EXISTS payment_method_id text;

-- Read tables (projection autopay): a renter's saved cards, whether autopay is on, and the
-- latest autopay charge of each invoice.
CREATE TABLE IF NOT EXISTS payment_methods (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  provider text NOT NULL,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  removed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_methods_customer_idx ON payment_methods (customer_id);

CREATE TABLE IF NOT EXISTS autopay_enrollments (
  customer_id uuid PRIMARY KEY,
  enabled boolean NOT NULL,
  payment_method_id uuid,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS autopay_enrollments_enabled_idx ON autopay_enrollments (customer_id) WHERE enabled;

CREATE TABLE IF NOT EXISTS autopay_charges (
  invoice_id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  facility_id uuid,
  attempt_id uuid NOT NULL,
  attempt integer NOT NULL,
  amount numeric(10, 2) NOT NULL,
  date date NOT NULL,
  status text NOT NULL CHECK (status IN ('attempted', 'succeeded', 'failed')),
  reason text,
  requires_action boolean NOT NULL DEFAULT false,
  next_attempt_on date,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS autopay_charges_customer_idx ON autopay_charges (customer_id);
CREATE INDEX IF NOT EXISTS autopay_charges_attempted_idx ON autopay_charges (facility_id) WHERE status = 'attempted';
