-- Reports from the ledger (issue 12): how each money movement came in or went out, so the
-- end-of-day report counts payments per method and per receipt from the ledger alone.
--   method: the payment method of money that moved (a payment, the part of a desk payment kept as
--     credit, a refund that names one); null for charges, staff credits, write-offs and voids.
--   receipt_id: the desk receipt the entry is part of (one payment over several invoices counts once).
-- Entries written before this migration have neither until the ledger is rebuilt
-- (`npm run ops -- rebuild`: the ledger reads other tables, so it is rebuilt with the whole read
-- model; `verify` shows them until then).
ALTER TABLE ledger_entries ADD COLUMN method text;
ALTER TABLE ledger_entries ADD COLUMN receipt_id uuid;
CREATE INDEX ledger_entries_day_idx ON ledger_entries (entry_date, facility_id);
CREATE INDEX ledger_entries_receipt_idx ON ledger_entries (receipt_id) WHERE receipt_id IS NOT NULL;
