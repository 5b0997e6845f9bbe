-- Credentials leave the history (issue 9). Password hashes are kept by the write side in
-- staff_credentials, which is NOT a read table: no projection writes it and a rebuild, verify or
-- swap never touches it. Events name a credential by id (staff_registered / staff_password_changed
-- v2); the read row of a staff member keeps that id, its role and whether it may sign in.
CREATE TABLE staff_credentials (
  credential_id uuid PRIMARY KEY,
  staff_id uuid NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_credentials_staff_idx ON staff_credentials (staff_id);

-- Existing installs: each member's latest hash becomes the legacy credential, whose id is the
-- staff id (what the v1 → v2 upcasters name). From the event table when the Postgres event store
-- lives in this database (the history decides), else from the read row (EventStoreDB: the
-- projection kept it current).
DO $$
BEGIN
  IF to_regclass('event_store.events') IS NOT NULL THEN
    INSERT INTO staff_credentials (credential_id, staff_id, password_hash, created_at)
    SELECT DISTINCT ON (e.data->>'staffId')
      (e.data->>'staffId')::uuid, (e.data->>'staffId')::uuid, e.data->>'passwordHash', e.recorded_at
    FROM event_store.events e
    WHERE e.type IN ('staff_registered', 'staff_password_changed') AND e.data ? 'passwordHash'
    ORDER BY e.data->>'staffId', e.transaction_id DESC, e.global_position DESC;
  END IF;
END
$$;

INSERT INTO staff_credentials (credential_id, staff_id, password_hash, created_at)
SELECT id, id, password_hash, updated_at FROM staff
ON CONFLICT (credential_id) DO NOTHING;

ALTER TABLE staff DROP COLUMN password_hash;
ALTER TABLE staff ADD COLUMN credential_id uuid;
UPDATE staff SET credential_id = id;
ALTER TABLE staff ALTER COLUMN credential_id SET NOT NULL;
ALTER TABLE staff ADD COLUMN status text NOT NULL DEFAULT 'active';

-- Then the hashes leave the stored events, in this same transaction (the migration runs in one):
-- the append-only trigger is switched off for exactly this one statement and on again. ALTER
-- TABLE holds the table's ACCESS EXCLUSIVE lock until the commit, so no other session ever sees
-- the trigger off or the table half rewritten; a crash rolls the copy and the rewrite back
-- together, and the migration runs again at the next start.
DO $$
BEGIN
  IF to_regclass('event_store.events') IS NOT NULL THEN
    ALTER TABLE event_store.events DISABLE TRIGGER events_are_append_only;
    UPDATE event_store.events SET data = data - 'passwordHash'
    WHERE type IN ('staff_registered', 'staff_password_changed') AND data ? 'passwordHash';
    ALTER TABLE event_store.events ENABLE TRIGGER events_are_append_only;
  END IF;
END
$$;
