-- What a unit offers a renter, set by staff (unit_added v2 and unit_features_changed): the public
-- unit list shows these as its badges. Units added before say nothing (no feature claimed), as
-- their v1 events read.
ALTER TABLE units
  ADD COLUMN climate_controlled boolean NOT NULL DEFAULT false,
  ADD COLUMN drive_up boolean NOT NULL DEFAULT false,
  ADD COLUMN floor smallint CHECK (floor BETWEEN 1 AND 99),
  ADD COLUMN lock_type text CHECK (lock_type IN ('disc', 'cylinder', 'smart'));
