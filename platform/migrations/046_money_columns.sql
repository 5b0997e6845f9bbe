-- Every money column holds any sum the write side can produce. numeric(10, 2) stopped at
-- 99,999,999.99: two desk payments on a renter who owed nothing put more credit on the account
-- than the column held, the customers projection failed on that event for good, and its lane
-- with it. The write side bounds each amount it accepts (contracts/src/money.ts, moneyLimits);
-- sums of them (credit, an invoice with its fees, a year of rent, a month's receipts) are not
-- bounded, so the columns are as wide as a bigint of cents (18 digits before the point).
-- Raising a numeric's precision with the same scale rewrites no row and keeps every index.
ALTER TABLE units ALTER COLUMN monthly_rate TYPE numeric(20, 2);
ALTER TABLE leases ALTER COLUMN monthly_rate TYPE numeric(20, 2);
ALTER TABLE leases ALTER COLUMN deposit_amount TYPE numeric(20, 2);
ALTER TABLE lease_rent_changes ALTER COLUMN current_rate TYPE numeric(20, 2);
ALTER TABLE lease_rent_changes ALTER COLUMN new_rate TYPE numeric(20, 2);
ALTER TABLE customers ALTER COLUMN credit_balance TYPE numeric(20, 2);
ALTER TABLE invoices ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE invoices ALTER COLUMN amount_paid TYPE numeric(20, 2);
ALTER TABLE payments ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE payments ALTER COLUMN amount_refunded TYPE numeric(20, 2);
ALTER TABLE payment_intents ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE test_payment_intents ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE test_payment_refunds ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE autopay_charges ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE settings ALTER COLUMN late_fee_amount TYPE numeric(20, 2);
ALTER TABLE ledger_entries ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE customer_balances ALTER COLUMN balance TYPE numeric(20, 2);
ALTER TABLE charge_type_months ALTER COLUMN amount TYPE numeric(20, 2);
ALTER TABLE money_months ALTER COLUMN revenue TYPE numeric(20, 2);
