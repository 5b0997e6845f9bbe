-- The staff lists sort on the server by the columns their contracts name, the row's key breaking
-- ties. Invoices are the one long list (tens of thousands of rows on a large install) whose new
-- orders would otherwise sort the whole table for each page: due date, number and amount get an
-- index each, on the very expressions the list orders by (api/src/invoices/queries.ts), and one
-- per facility, as the newest-first order has (a facility's rows are too few of all to be found
-- by walking the index of all invoices).
CREATE INDEX invoices_due_date_order_idx ON invoices (due_date, id);
CREATE INDEX invoices_facility_due_date_order_idx ON invoices (facility_id, due_date, id);
CREATE INDEX invoices_number_order_idx ON invoices ((lower(invoice_number) COLLATE "C"), id);
CREATE INDEX invoices_facility_number_order_idx ON invoices (facility_id, (lower(invoice_number) COLLATE "C"), id);
CREATE INDEX invoices_amount_order_idx ON invoices (amount, id);
CREATE INDEX invoices_facility_amount_order_idx ON invoices (facility_id, amount, id);
