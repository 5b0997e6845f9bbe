-- One-time sign-in codes of the portal gate, mailed to the renter when the phone digits alone no
-- longer open a session (the email's gate has seen failures: api/src/portal/sign-in-codes.ts).
-- Owned by the API, not the projector (not built from events). Only a hash of each code is kept,
-- salted by its row id, so a copy of this table opens no session; a code works once, for 10
-- minutes, for 5 tries.
CREATE TABLE portal_sign_in_codes (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  -- The email the renter typed, lowercased: the code is asked for with it.
  email text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  tries integer NOT NULL DEFAULT 0,
  used_at timestamptz
);
CREATE INDEX portal_sign_in_codes_email_idx ON portal_sign_in_codes (email, created_at DESC);
CREATE INDEX portal_sign_in_codes_expiry_idx ON portal_sign_in_codes (expires_at);

-- The gate's failures are kept a day (the limiter's own window is shorter), so a guesser who
-- moves between addresses meets the code.
ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_kind_check;
ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_kind_check CHECK (kind IN ('staff', 'portal', 'portal-code'));
