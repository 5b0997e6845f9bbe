-- What each facility sells at the desk (merchandise_item_added and the item's later events): the
-- catalogue the console lists and the desk sells from. stock: items on hand (null: an item with
-- no stock to count, such as a service fee); active false: retired, no longer sold.
CREATE TABLE merchandise_items (
  id uuid PRIMARY KEY,
  facility_id uuid NOT NULL,
  name text NOT NULL,
  price numeric(20, 2) NOT NULL,
  taxable boolean NOT NULL,
  stock integer CHECK (stock >= 0),
  active boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX merchandise_items_facility_idx ON merchandise_items (facility_id, lower(name));
