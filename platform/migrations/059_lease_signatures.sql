-- The renter's newest signature of the lease agreement (lease_signed), for the Leases list's
-- "Awaiting signature" tag and filter and the lease's detail: who signed, when, at the desk or
-- online. Null: not signed electronically, as every lease started before this release.
ALTER TABLE leases ADD COLUMN signed_at timestamptz;
ALTER TABLE leases ADD COLUMN signer_name text;
ALTER TABLE leases ADD COLUMN signature_channel text CHECK (signature_channel IN ('desk', 'online'));
CREATE INDEX leases_awaiting_signature_idx ON leases (created_at DESC) WHERE signed_at IS NULL;
