-- The name of the promotion a lease was given at its move-in (lease_promotion_applied), as it was
-- then, for the rent roll beside the rate paid. Null: none. Leases already moved in get it here from
-- the Postgres event store; on an install whose events are in EventStoreDB it stays null until the
-- leases projection is rebuilt (Settings → Read model).
ALTER TABLE leases ADD COLUMN promotion_name text;

DO $$
BEGIN
  IF to_regclass('event_store.events') IS NOT NULL THEN
    UPDATE leases l
    SET promotion_name = e.data->'promotion'->>'name'
    FROM event_store.events e
    WHERE e.type = 'lease_promotion_applied' AND (e.data->>'leaseId')::uuid = l.id;
  END IF;
END
$$;
