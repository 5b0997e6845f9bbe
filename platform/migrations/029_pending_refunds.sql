-- Card refunds in two steps (issue 12): a refund staff decide is requested (its row in payments has
-- status 'pending') before the provider is asked, and issued after. The payment reconciliation
-- finishes a pending one left by a crash or a provider refusal; what it last tried and why it
-- failed is kept here. Not a read-model table: written by the reconciliation, never projected
-- (as payment_intents), so a rebuild leaves it alone.
CREATE TABLE IF NOT EXISTS refund_attempts (
  refund_id uuid PRIMARY KEY,
  checked_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
