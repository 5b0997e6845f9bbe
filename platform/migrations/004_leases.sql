-- Lease Agreements: the list searches the tenant's name and email and the unit number (kept in
-- search_text by the leases projection), lists the newest leases first, and sums up each
-- lease's invoices.
ALTER TABLE leases ADD COLUMN search_text text NOT NULL DEFAULT '';
UPDATE leases l SET search_text = lower(concat_ws(' ', c.first_name, c.last_name, c.email, u.unit_number))
FROM customers c, units u
WHERE c.id = l.customer_id AND u.id = l.unit_id;

CREATE INDEX leases_search_idx ON leases USING gin (search_text gin_trgm_ops);
CREATE INDEX leases_listing_idx ON leases (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS invoices_lease_idx ON invoices (lease_id) WHERE lease_id IS NOT NULL;
