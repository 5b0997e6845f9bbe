-- The invoices list sorted by customer or by status read every invoice for each page (issue 14):
-- the customer's name was in another table, and the status sorted by its place in a list passed
-- as a parameter, which no index serves. Both now live on the invoice row, kept by the invoices
-- projection: the customer's name as the customer sort orders it (last name, then first name;
-- a rename follows through customer_updated), and the status's place in contracts' InvoiceStatus
-- (1 for the first). Each order has an index on the very expressions the list orders by
-- (api/src/invoices/queries.ts), and one per facility, as migration 020 gave the other orders.
ALTER TABLE invoices
  ADD COLUMN customer_last_name text NOT NULL DEFAULT '',
  ADD COLUMN customer_first_name text NOT NULL DEFAULT '',
  ADD COLUMN status_rank smallint NOT NULL DEFAULT 0;

-- The rows already there (a rebuild writes them from the history instead).
UPDATE invoices i SET
  customer_last_name = c.last_name,
  customer_first_name = c.first_name,
  status_rank = coalesce(array_position(ARRAY['draft', 'sent', 'paid', 'overdue', 'cancelled', 'written_off'], i.status), 0)
FROM customers c
WHERE c.id = i.customer_id;
UPDATE invoices SET status_rank = coalesce(array_position(ARRAY['draft', 'sent', 'paid', 'overdue', 'cancelled', 'written_off'], status), 0)
WHERE status_rank = 0;

-- From now on the projection writes them with every row.
ALTER TABLE invoices
  ALTER COLUMN customer_last_name DROP DEFAULT,
  ALTER COLUMN customer_first_name DROP DEFAULT,
  ALTER COLUMN status_rank DROP DEFAULT;

CREATE INDEX invoices_customer_order_idx ON invoices ((lower(customer_last_name) COLLATE "C"), (lower(customer_first_name) COLLATE "C"), id);
CREATE INDEX invoices_facility_customer_order_idx
  ON invoices (facility_id, (lower(customer_last_name) COLLATE "C"), (lower(customer_first_name) COLLATE "C"), id);
CREATE INDEX invoices_status_order_idx ON invoices (status_rank, due_date, id);
CREATE INDEX invoices_facility_status_order_idx ON invoices (facility_id, status_rank, due_date, id);
