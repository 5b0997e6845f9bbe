-- Units and smart locks as their screens query them: searched by a substring, scoped by facility,
-- listed in order. And the hashes of the facilities' lock gateway keys.

-- What the units search box matches: unit number, building and size, lower-cased.
ALTER TABLE units
  ADD COLUMN search_text text GENERATED ALWAYS AS (lower(unit_number || ' ' || building || ' ' || size)) STORED;
CREATE INDEX units_search_idx ON units USING gin (search_text gin_trgm_ops);
CREATE INDEX units_listing_idx ON units (building, unit_number);

-- A lock carries its unit's number and facility, so the list is searched by either and scoped by
-- the unit's facility without a join. A unit's number and facility never change.
ALTER TABLE locks ADD COLUMN unit_number text, ADD COLUMN facility_id uuid;
UPDATE locks l SET unit_number = u.unit_number, facility_id = u.facility_id FROM units u WHERE u.id = l.unit_id;
ALTER TABLE locks
  ADD COLUMN search_text text GENERATED ALWAYS AS (lower(lock_id || ' ' || coalesce(unit_number, ''))) STORED;
CREATE INDEX locks_search_idx ON locks USING gin (search_text gin_trgm_ops);
CREATE INDEX locks_listing_idx ON locks (lock_id);
CREATE INDEX locks_facility_idx ON locks (facility_id, lock_id);

-- One key per facility; rotating replaces the row.
CREATE TABLE gateway_keys (
  facility_id uuid PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL
);
