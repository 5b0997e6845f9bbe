-- A renter pays an amount of their choosing toward their whole balance from the portal: its
-- intent names the customer and no invoice (the server spreads the money over their open
-- invoices when it succeeds). A customer has at most one live such intent, as an invoice has.
ALTER TABLE payment_intents ALTER COLUMN invoice_id DROP NOT NULL;
ALTER TABLE test_payment_intents ALTER COLUMN invoice_id DROP NOT NULL;
CREATE UNIQUE INDEX payment_intents_one_live_per_account ON payment_intents (customer_id) WHERE state = 'live' AND invoice_id IS NULL;
