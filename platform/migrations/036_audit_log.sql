-- The auditors' event log as a read table of its own (issue 14), kept by the audit-log projection:
-- one row per event with what the log's screen shows and filters on, so a page is an index range
-- on any event store (EventStoreDB too) instead of a query over event_store.events' JSON or a
-- read of the whole log. Nothing secret is stored: the data is redacted and the stream name is
-- the one shown (a gate code's claim without the code).
CREATE TABLE audit_log (
  -- The event's place in the log, (hi << 64) + lo of its position: the log's own order.
  position numeric PRIMARY KEY,
  event_id uuid NOT NULL,
  type text NOT NULL,
  stream_name text NOT NULL,
  -- The facility its entity belonged to when it happened (null: none, or not an entity of one).
  facility_id uuid,
  actor_type text NOT NULL,
  -- The staff member or renter; null for the system. Their label is looked up when shown.
  actor_id uuid,
  -- As the event states it (ISO-8601, UTC): compared as text, which sorts as time does.
  occurred_at text COLLATE "C" NOT NULL,
  recorded_at text COLLATE "C" NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL
);
-- Newest first by when events occurred (the screen's default), ties in the log's order; each filter
-- has its own range in that order, so a page, deep or not, reads about a page of index entries.
CREATE INDEX audit_log_occurred_idx ON audit_log (occurred_at, position);
CREATE INDEX audit_log_type_idx ON audit_log (type, occurred_at, position);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, occurred_at, position);
CREATE INDEX audit_log_facility_idx ON audit_log (facility_id, occurred_at, position);
CREATE INDEX audit_log_stream_idx ON audit_log (stream_name, occurred_at, position);

-- The activity feed pages by (created_at, recorded_order) from a cursor: each filter's index ends
-- in that pair, so a deep page is an index range rather than an OFFSET. Each entry keeps its tab
-- (contracts' activityTabOf; the projection writes it, the rows already there get it here), so a
-- tab is one range too rather than several types merged and sorted.
ALTER TABLE activities ADD COLUMN tab text;
UPDATE activities SET tab = CASE
  WHEN type IN ('customer_added', 'reservation_submitted', 'customer_updated', 'customer_archived') THEN 'customers'
  WHEN type IN ('lease_started', 'unit_maintenance', 'lease_ended') THEN 'leases'
  WHEN type IN ('invoice_generated', 'payment_received', 'invoice_sent', 'invoice_overdue', 'invoice_cancelled', 'payment_refunded') THEN 'payments'
  WHEN type IN ('access_granted', 'lock_status_changed', 'lock_installed', 'lock_assigned', 'lock_battery_low', 'lock_maintenance') THEN 'access'
END;
DROP INDEX activities_created_idx;
DROP INDEX activities_facility_idx;
DROP INDEX activities_facility_type_idx;
DROP INDEX activities_type_idx;
DROP INDEX activities_customer_idx;
CREATE INDEX activities_feed_order_idx ON activities (created_at, recorded_order);
CREATE INDEX activities_facility_order_idx ON activities (facility_id, created_at, recorded_order);
CREATE INDEX activities_facility_type_order_idx ON activities (facility_id, type, created_at, recorded_order);
CREATE INDEX activities_type_order_idx ON activities (type, created_at, recorded_order);
CREATE INDEX activities_customer_order_idx ON activities (customer_id, created_at, recorded_order);
CREATE INDEX activities_tab_order_idx ON activities (tab, created_at, recorded_order);
CREATE INDEX activities_facility_tab_order_idx ON activities (facility_id, tab, created_at, recorded_order);
