-- The dashboard's occupancy per building as of a past day: per facility, building and day, how
-- the number of units and of occupied units changed. A building's figures at the end of a past
-- day are today's less the changes after it, as for the facility figures of metrics_daily.

CREATE TABLE metrics_building_daily (
  -- Null: units that belong to no facility.
  facility_id uuid,
  building text NOT NULL,
  day date NOT NULL,
  units_change integer NOT NULL DEFAULT 0,
  occupied_units_change integer NOT NULL DEFAULT 0,
  CONSTRAINT metrics_building_daily_key UNIQUE NULLS NOT DISTINCT (facility_id, building, day)
);
CREATE INDEX metrics_building_daily_day_idx ON metrics_building_daily (day);

-- The buildings' changes of the history so far come from its events: the metrics projection
-- replays it from the first event (the dashboard's past figures lag until it has caught up).
TRUNCATE metrics_units, metrics_customers, metrics_invoices, metrics_daily;
UPDATE projection_checkpoints SET position_hi = NULL, position_lo = NULL WHERE name = 'metrics';

-- The metrics projection reads a unit's building from its own copy of the unit.
ALTER TABLE metrics_units ADD COLUMN building text NOT NULL;
