-- The audit log's row keeps what takes an auditor from an event to its request: the correlation id
-- (the request id of the request that appended it, or the process run's) and the causation id (the
-- event that caused it), and the event's revision in its stream. The audit-log projection writes
-- them from now on. Rows already logged get them here from the Postgres event store; on an install
-- whose events are in EventStoreDB they stay null until the audit-log projection is rebuilt
-- (Settings → Read model), and the log says "not recorded" for them.
ALTER TABLE audit_log
  ADD COLUMN correlation_id text,
  ADD COLUMN causation_id text,
  ADD COLUMN stream_revision bigint;

DO $$
BEGIN
  IF to_regclass('event_store.events') IS NOT NULL THEN
    UPDATE audit_log a
    SET correlation_id = e.metadata->>'correlationId', causation_id = e.metadata->>'causationId', stream_revision = e.revision
    FROM event_store.events e
    WHERE e.id = a.event_id;
  END IF;
END
$$;

-- A request's events: one index range, newest first as the screen asks.
CREATE INDEX audit_log_correlation_idx ON audit_log (correlation_id, occurred_at, position);
