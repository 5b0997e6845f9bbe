-- Staff lists page by cursor (issue 14): each page is read from an index on its filter and order,
-- after the boundary row's keys, and counts stop at a cap. The invoices list (one row per invoice:
-- tens of thousands on a large history) filtered by status or by one customer, in its default
-- order (newest first), had no index serving both, so a page sorted every matching row.
CREATE INDEX invoices_status_newest_idx ON invoices (status, created_at DESC, id DESC);
CREATE INDEX invoices_customer_newest_idx ON invoices (customer_id, created_at DESC, id DESC);

