-- Each renter's ledger (issue 12): one row per money event of a customer, in the order recorded.
-- Charges are positive, payments, credits and write-offs negative; a statement's running balance
-- is their sum (a window function), as of any date.
CREATE TABLE ledger_entries (
  -- The event the entry records.
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  facility_id uuid,
  -- The facility's date of the entry (a payment's paid date).
  entry_date date NOT NULL,
  recorded_at timestamptz NOT NULL,
  -- The event's place in the history ((hi << 64) + lo): entries of one day in the order they happened.
  position numeric(40, 0) NOT NULL,
  -- charge, late_fee, payment, credit, refund, write_off, void
  kind text NOT NULL,
  description text NOT NULL,
  invoice_id uuid,
  invoice_number text,
  amount numeric(12, 2) NOT NULL
);
CREATE INDEX ledger_entries_customer_idx ON ledger_entries (customer_id, entry_date, position);
CREATE INDEX ledger_entries_invoice_idx ON ledger_entries (invoice_id);
