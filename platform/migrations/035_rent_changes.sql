-- Rent changes (issue 13): each change scheduled on a lease (lease_rent_change_scheduled), and
-- whether it was cancelled. Whether one is in effect depends on the facility's date, so the
-- queries decide it (effective_date on or before today: in effect; after: pending).
CREATE TABLE lease_rent_changes (
  id uuid PRIMARY KEY,
  lease_id uuid NOT NULL,
  customer_id uuid NOT NULL,
  current_rate numeric(10, 2) NOT NULL,
  new_rate numeric(10, 2) NOT NULL,
  notice_date date NOT NULL,
  effective_date date NOT NULL,
  reason text,
  cancelled boolean NOT NULL DEFAULT false,
  cancel_reason text,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX lease_rent_changes_lease_idx ON lease_rent_changes (lease_id, effective_date);
CREATE INDEX lease_rent_changes_customer_idx ON lease_rent_changes (customer_id);
