-- Read model: tables built by the projector from the event history. Nothing but the projector
-- writes them; they can be dropped and rebuilt from the events at any time.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE projection_checkpoints (
  name text PRIMARY KEY,
  position_hi numeric(20, 0),
  position_lo numeric(20, 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE staff (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  first_name text,
  last_name text,
  profile_image_url text,
  role text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE facilities (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  address text NOT NULL,
  phone text,
  manager_name text,
  total_units integer NOT NULL DEFAULT 0,
  occupied_units integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE units (
  id uuid PRIMARY KEY,
  unit_number text NOT NULL,
  building text NOT NULL,
  facility_id uuid,
  size text NOT NULL,
  monthly_rate numeric(10, 2) NOT NULL,
  status text NOT NULL,
  description text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX units_facility_idx ON units (facility_id, building, unit_number);
CREATE INDEX units_status_idx ON units (status);

CREATE TABLE customers (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  address text,
  emergency_contact text,
  emergency_phone text,
  status text NOT NULL,
  facility_id uuid,
  archived boolean NOT NULL DEFAULT false,
  -- What the search box matches: name, email, phone, lower-cased.
  search_text text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX customers_listing_idx ON customers (facility_id, created_at DESC) WHERE NOT archived;
CREATE INDEX customers_created_idx ON customers (created_at DESC) WHERE NOT archived;
CREATE INDEX customers_search_idx ON customers USING gin (search_text gin_trgm_ops);

CREATE TABLE leases (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  unit_id uuid NOT NULL,
  start_date date NOT NULL,
  end_date date,
  monthly_rate numeric(10, 2) NOT NULL,
  deposit_amount numeric(10, 2),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX leases_customer_idx ON leases (customer_id);
CREATE INDEX leases_unit_idx ON leases (unit_id);

CREATE TABLE invoices (
  id uuid PRIMARY KEY,
  invoice_number text NOT NULL,
  customer_id uuid NOT NULL,
  lease_id uuid,
  amount numeric(10, 2) NOT NULL,
  due_date date NOT NULL,
  paid_date date,
  status text NOT NULL,
  description text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX invoices_customer_idx ON invoices (customer_id);
CREATE INDEX invoices_status_idx ON invoices (status, due_date);
CREATE INDEX invoices_created_idx ON invoices (created_at DESC);

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  invoice_id uuid,
  amount numeric(10, 2) NOT NULL,
  method text NOT NULL,
  status text NOT NULL,
  stripe_payment_intent_id text,
  transaction_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX payments_invoice_idx ON payments (invoice_id);

CREATE TABLE locks (
  id uuid PRIMARY KEY,
  lock_id text NOT NULL,
  unit_id uuid,
  status text NOT NULL,
  battery_level integer,
  last_seen timestamptz,
  firmware_version text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX locks_unit_idx ON locks (unit_id);

CREATE TABLE activities (
  id uuid PRIMARY KEY,
  type text NOT NULL,
  description text NOT NULL,
  customer_id uuid,
  unit_id uuid,
  lock_id uuid,
  invoice_id uuid,
  user_id uuid,
  facility_id uuid,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX activities_created_idx ON activities (created_at DESC);
CREATE INDEX activities_facility_idx ON activities (facility_id, created_at DESC);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  type text NOT NULL,
  title text NOT NULL,
  message text NOT NULL,
  read boolean NOT NULL DEFAULT false,
  facility_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_created_idx ON notifications (created_at DESC);
