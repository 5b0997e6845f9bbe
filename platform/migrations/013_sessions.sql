-- Server-side sessions: the session cookie carries only the ids of these rows, and every request
-- checks its row, so signing out, a password change or a deactivation ends a session at once on
-- every API replica. Owned by the API, not the projector (not built from events). `id` is the
-- SHA-256 of the random token the cookie carries, so a copy of this table opens no session.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('staff', 'customer')),
  subject_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_subject_idx ON sessions (kind, subject_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);

-- Failed sign-ins of both doors (staff sign-in and the portal gate) in one table, counted by one
-- limiter (api/src/auth/failure-limit.ts): `kind` says which door, `account` the email tried.
ALTER TABLE portal_gate_failures RENAME TO sign_in_failures;
ALTER TABLE sign_in_failures RENAME COLUMN email TO account;
ALTER TABLE sign_in_failures ADD COLUMN kind text NOT NULL DEFAULT 'portal' CHECK (kind IN ('staff', 'portal'));
ALTER TABLE sign_in_failures ALTER COLUMN kind DROP DEFAULT;
DROP INDEX portal_gate_failures_email_idx;
DROP INDEX portal_gate_failures_ip_idx;
ALTER INDEX portal_gate_failures_expiry_idx RENAME TO sign_in_failures_expiry_idx;
CREATE INDEX sign_in_failures_account_idx ON sign_in_failures (kind, account, failed_at DESC);
CREATE INDEX sign_in_failures_ip_idx ON sign_in_failures (kind, ip, failed_at DESC);
