-- Failed portal gate attempts (wrong email or phone digits), kept here so that every API replica
-- sees them: the gate refuses an email after 5 and an IP after 20 within 15 minutes. Owned by the
-- API, not the projector (it is not built from events). Successes are not recorded.
CREATE TABLE portal_gate_failures (
  email text NOT NULL,
  ip text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_gate_failures_email_idx ON portal_gate_failures (email, failed_at DESC);
CREATE INDEX portal_gate_failures_ip_idx ON portal_gate_failures (ip, failed_at DESC);
CREATE INDEX portal_gate_failures_expiry_idx ON portal_gate_failures (failed_at);

-- The gate finds a renter by email.
CREATE INDEX customers_portal_email_idx ON customers (lower(email)) WHERE NOT archived;
