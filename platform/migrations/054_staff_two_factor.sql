-- Two-factor sign-in of staff (TOTP, RFC 6238, with one-time recovery codes). Owned by the API,
-- like staff_credentials and sessions: not part of the read model, never built from events (the
-- staff stream's staff_two_factor_enabled names a row by its id, and says which one is current).
-- A row is one enrolment: made unconfirmed when the member starts (pending_until), used once the
-- member confirms it with a code. The secret is encrypted (AES-256-GCM, a key derived from the
-- session key, the row's id as associated data) and recovery codes are kept as keyed hashes only,
-- so a copy of this table signs no one in. last_used_step: the newest 30-second step whose code was
-- accepted; a code of that step or an earlier one is refused, so a code works once.
CREATE TABLE staff_two_factor (
  factor_id uuid PRIMARY KEY,
  staff_id uuid NOT NULL,
  secret_ciphertext text NOT NULL,
  recovery_code_hashes text[] NOT NULL DEFAULT '{}',
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  pending_until timestamptz,
  confirmed_at timestamptz
);
CREATE INDEX staff_two_factor_staff_idx ON staff_two_factor (staff_id, created_at DESC);

-- The read model: the factor the staff stream says is current (null: off), and whether the
-- business requires two-factor sign-in (security_settings_updated).
ALTER TABLE staff ADD COLUMN two_factor_id uuid;
ALTER TABLE settings ADD COLUMN two_factor_required boolean NOT NULL DEFAULT false;

-- Wrong two-factor codes are counted by the sign-in limiter as failures of their own kind.
ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_kind_check;
ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_kind_check CHECK (kind IN ('staff', 'portal', 'portal-code', 'staff-code'));
