-- The business's settings, one row per settings scope (`settings-<scope>` stream). A scope
-- with no row has every default (contracts/src/settings.ts); the projection writes them with
-- the first saved setting, so the defaults live in one place.
CREATE TABLE settings (
  scope text PRIMARY KEY,
  business_name text,
  business_phone text,
  business_email text,
  overdue_payment_alerts boolean NOT NULL,
  low_battery_alerts boolean NOT NULL,
  new_customer_alerts boolean NOT NULL,
  automatic_charging boolean NOT NULL,
  late_fee_amount numeric(10, 2) NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The facilities list in Settings searches by name and address.
CREATE INDEX facilities_search_idx ON facilities USING gin (lower(name || ' ' || address) gin_trgm_ops);
