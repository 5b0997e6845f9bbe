-- Payment intents of the built-in test provider (the card provider used when no Stripe keys are
-- configured). Owned by the API, not the projector: this is the provider's own record, as Stripe
-- keeps its intents. Whether an intent's payment was recorded is the invoice stream's business.
CREATE TABLE test_payment_intents (
  id text PRIMARY KEY,
  client_secret text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  invoice_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  customer_email text NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX test_payment_intents_invoice_idx ON test_payment_intents (invoice_id);
