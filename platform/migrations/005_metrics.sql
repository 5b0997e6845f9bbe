-- Dashboard and report figures: per facility and day, what happened and how the stock figures
-- (units, occupied units, active customers, outstanding balance) changed. A figure at the end of
-- any past month is today's figure less the changes after that month.

-- What the metrics projection keeps of each unit, customer and invoice to turn an event into
-- changes of the figures. Its own copy, so that it can be rebuilt alone.
CREATE TABLE metrics_units (
  unit_id uuid PRIMARY KEY,
  facility_id uuid,
  status text NOT NULL,
  -- The unit's current vacancy: since when it has been for rent (null while leased or under
  -- maintenance), and the time it already stood for rent before a maintenance paused it.
  vacant_since timestamptz,
  vacant_seconds bigint NOT NULL DEFAULT 0
);

CREATE TABLE metrics_customers (
  customer_id uuid PRIMARY KEY,
  facility_id uuid,
  status text NOT NULL,
  archived boolean NOT NULL DEFAULT false
);

CREATE TABLE metrics_invoices (
  invoice_id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  amount_cents bigint NOT NULL,
  -- Sent or overdue: part of the outstanding balance.
  open boolean NOT NULL
);
CREATE INDEX metrics_invoices_open_idx ON metrics_invoices (customer_id) WHERE open;

CREATE TABLE metrics_daily (
  -- Null: units and customers that belong to no facility.
  facility_id uuid,
  day date NOT NULL,
  revenue_cents bigint NOT NULL DEFAULT 0,
  payments integer NOT NULL DEFAULT 0,
  customers_added integer NOT NULL DEFAULT 0,
  move_ins integer NOT NULL DEFAULT 0,
  move_outs integer NOT NULL DEFAULT 0,
  units_filled integer NOT NULL DEFAULT 0,
  vacant_seconds_filled bigint NOT NULL DEFAULT 0,
  units_change integer NOT NULL DEFAULT 0,
  occupied_units_change integer NOT NULL DEFAULT 0,
  active_customers_change integer NOT NULL DEFAULT 0,
  outstanding_cents_change bigint NOT NULL DEFAULT 0,
  CONSTRAINT metrics_daily_key UNIQUE NULLS NOT DISTINCT (facility_id, day)
);
CREATE INDEX metrics_daily_day_idx ON metrics_daily (day);

-- The activity feed is searched by description and by its customer's name and email, and
-- filtered by type, in every facility scope.
ALTER TABLE activities ADD COLUMN search_text text NOT NULL DEFAULT '';
-- Entries of one command share their time; the order they were recorded in breaks the tie.
ALTER TABLE activities ADD COLUMN recorded_order bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX activities_search_idx ON activities USING gin (search_text gin_trgm_ops);
CREATE INDEX activities_type_idx ON activities (type, created_at DESC);
CREATE INDEX activities_facility_type_idx ON activities (facility_id, type, created_at DESC);
CREATE INDEX activities_customer_idx ON activities (customer_id);
CREATE INDEX activities_lock_idx ON activities (lock_id, created_at DESC);

-- The feed now describes more of the history (invoices sent, overdue and cancelled, leases ended,
-- locks assigned, customers archived): rebuild it from the first event.
DELETE FROM activities;
UPDATE projection_checkpoints SET position_hi = NULL, position_lo = NULL WHERE name = 'activities';

-- The bell counts the unread notifications of a facility scope.
CREATE INDEX notifications_unread_idx ON notifications (facility_id) WHERE NOT read;
CREATE INDEX notifications_facility_idx ON notifications (facility_id, created_at DESC);
