-- Reservations submitted by renters online, until staff convert them into a lease, cancel them,
-- or the hold expires; and the waiting list of renters to notify when a unit is free.
CREATE TABLE reservations (
  id uuid PRIMARY KEY,
  unit_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  move_in_date date NOT NULL,
  special_requests text,
  status text NOT NULL,
  lease_id uuid,
  submitted_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- The open reservations (the staff list, the expiry job), oldest first.
CREATE INDEX reservations_open_idx ON reservations (submitted_at) WHERE status = 'submitted';

CREATE TABLE waitlist_entries (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  size text,
  facility_id uuid,
  joined_at timestamptz NOT NULL
);
CREATE INDEX waitlist_entries_joined_idx ON waitlist_entries (joined_at DESC);
