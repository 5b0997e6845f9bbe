-- Billing: the invoices list searches by invoice number or customer name/email and is scoped by
-- the customer's facility. Both are kept on the invoice row (the invoices projection refreshes
-- them when the customer changes), so listing 200,000 invoices is one indexed table read.
ALTER TABLE invoices
  ADD COLUMN facility_id uuid,
  -- What the search box matches: invoice number, customer name and email, lower-cased.
  ADD COLUMN search_text text NOT NULL DEFAULT '';

UPDATE invoices i SET
  facility_id = c.facility_id,
  search_text = lower(concat_ws(' ', i.invoice_number, c.first_name, c.last_name, c.first_name || ' ' || c.last_name, c.email))
FROM customers c
WHERE c.id = i.customer_id;
UPDATE invoices SET search_text = lower(invoice_number) WHERE search_text = '';

-- The list's order (newest first, id breaking ties) with and without the facility scope: a page
-- and its total are read from the index alone. The new one covers the old created_at index.
CREATE INDEX invoices_newest_idx ON invoices (created_at DESC, id DESC);
CREATE INDEX invoices_facility_newest_idx ON invoices (facility_id, created_at DESC, id DESC);
DROP INDEX invoices_created_idx;
CREATE INDEX invoices_search_idx ON invoices USING gin (search_text gin_trgm_ops);
-- The overdue job: overdue invoices whose customer may still need marking.
CREATE INDEX invoices_overdue_customer_idx ON invoices (customer_id) WHERE status = 'overdue';
