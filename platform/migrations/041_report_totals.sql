-- What the reports and the dashboard sum, kept by the report-totals projection as events arrive
-- (issue 14), so an answer over all facilities reads a few rows instead of every renter's ledger
-- and every lease's invoices. 042 fills them on an upgrade.

-- Each renter's ledger balance: the sum of their ledger entries (all dates).
CREATE TABLE customer_balances (
  customer_id uuid PRIMARY KEY,
  balance numeric(14, 2) NOT NULL
);

-- The rent periods of each lease: one row per rent line (with its period) of the lease's invoices;
-- `counts` while the invoice is neither a draft nor cancelled. Key: invoice id ':' line number.
CREATE TABLE lease_rent_periods (
  key text PRIMARY KEY,
  lease_id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  counts boolean NOT NULL
);
CREATE INDEX lease_rent_periods_lease_idx ON lease_rent_periods (lease_id, period_start DESC) WHERE counts;

-- Revenue by charge type: per facility (of the ledger entry), month (YYYY-MM of the entry's date)
-- and what: 'line' (an invoice line of kind line_kind, in the month its charge entered the ledger),
-- 'void' or 'write_off' (those entries' amounts, negative). Key: facility '|' month '|' entry '|' kind.
CREATE TABLE charge_type_months (
  key text PRIMARY KEY,
  facility_id uuid,
  month text COLLATE "C" NOT NULL,
  entry text NOT NULL,
  line_kind text,
  amount numeric(14, 2) NOT NULL
);
CREATE INDEX charge_type_months_month_idx ON charge_type_months (month, facility_id);

-- Money in per month, as the reports' overview counts it: the ledger's money entries (payments,
-- the desk's credit, refunds), revenue = what came in less what went back, payments = how many
-- (a desk receipt over several invoices once). Per scope: a facility's id ('-': none) or '*' (all),
-- so a receipt counts once in each. money_receipt_months holds the receipts already counted.
CREATE TABLE money_months (
  key text PRIMARY KEY,
  scope text NOT NULL,
  month text COLLATE "C" NOT NULL,
  revenue numeric(14, 2) NOT NULL,
  payments integer NOT NULL
);
CREATE INDEX money_months_scope_idx ON money_months (scope, month);
CREATE TABLE money_receipt_months (
  -- scope '|' month '|' receipt id
  key text PRIMARY KEY,
  receipt_id uuid NOT NULL
);

-- The overview's collection rate of one facility counts its renters' invoices due in its months
-- from this index alone (over all facilities, from invoices_status_idx alone).
CREATE INDEX invoices_customer_due_idx ON invoices (customer_id, due_date) INCLUDE (status);
