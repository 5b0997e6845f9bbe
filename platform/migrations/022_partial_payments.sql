-- Partial payments and account credits (issue: the facility bills itself): what has been paid on
-- each invoice (the open balance is amount - amount_paid), and each renter's unapplied credit.
ALTER TABLE invoices ADD COLUMN amount_paid numeric(10, 2) NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN credit_balance numeric(10, 2) NOT NULL DEFAULT 0;
CREATE INDEX customers_credit_idx ON customers (facility_id) WHERE credit_balance > 0;
