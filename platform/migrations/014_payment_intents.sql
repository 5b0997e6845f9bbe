-- Our own record of the payment intents we asked a card provider for (Stripe or the built-in test
-- provider), one row per intent. Owned by the API, not the projector. An invoice has at most one
-- live intent: creating an intent reuses it (same amount) or cancels it through the provider first
-- (stale amount), and the partial unique index makes the database refuse a second live one.
CREATE TABLE payment_intents (
  id text PRIMARY KEY,
  provider text NOT NULL,
  invoice_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  amount numeric(10, 2) NOT NULL,
  -- live: may still take money; cancelled: cancelled through the provider; succeeded: took money.
  state text NOT NULL CHECK (state IN ('live', 'cancelled', 'succeeded')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX payment_intents_one_live_per_invoice ON payment_intents (invoice_id) WHERE state = 'live';
CREATE INDEX payment_intents_invoice_idx ON payment_intents (invoice_id);

-- Refunds the built-in test provider made (its "server", as test_payment_intents is); the
-- idempotency key makes a repeated refund the first one, as Stripe's keys do.
CREATE TABLE test_payment_refunds (
  id text PRIMARY KEY,
  payment_intent_id text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX test_payment_refunds_intent_idx ON test_payment_refunds (payment_intent_id);

-- Idempotency keys: bound to the request body (a hash of its canonical form, never the body),
-- expired after a day, and a claim left by a request that crashed is taken over once stale.
ALTER TABLE idempotency_keys ADD COLUMN body_hash text NOT NULL DEFAULT '';
ALTER TABLE idempotency_keys ADD COLUMN claimed_at timestamptz NOT NULL DEFAULT now();
-- Which run holds the claim: a run that outlived its claim (taken over) does not write the answer.
ALTER TABLE idempotency_keys ADD COLUMN claim_token text NOT NULL DEFAULT '';
-- Keys stored before this release were scoped by address for renters: forget them (they expire anyway).
DELETE FROM idempotency_keys;
