-- The payment reconciliation process (api/src/payments/reconcile.ts) asks the provider about every
-- intent of ours that may have taken money nobody has recorded yet: a live intent (the renter may
-- have paid and closed the tab before the success page reported it), or one that took money whose
-- payment or refund is not recorded (a refund call failed, a report crashed).
-- settled_at: the charge is on its invoice as a payment, or refunded and recorded; nothing is left to do.
ALTER TABLE payment_intents ADD COLUMN settled_at timestamptz;
-- When the process last found the intent still payable, and how many times in a row: it asks
-- again after 2, 4, 8 ... minutes, at most hourly, so abandoned intents cost few provider calls.
ALTER TABLE payment_intents ADD COLUMN checked_at timestamptz;
ALTER TABLE payment_intents ADD COLUMN checks integer NOT NULL DEFAULT 0;
-- Why the last attempt to settle it failed (a refund the provider refused, ...); null once it works.
ALTER TABLE payment_intents ADD COLUMN last_error text;
-- Intents marked succeeded before this release are settled when the read model shows their
-- charge (as a payment or a refund); any other is left to the process, which looks at it once
-- (recording and refunding are idempotent, so one recorded meanwhile changes nothing).
UPDATE payment_intents i SET settled_at = i.updated_at
WHERE i.state = 'succeeded' AND EXISTS (SELECT 1 FROM payments p WHERE p.stripe_payment_intent_id = i.id);
CREATE INDEX payment_intents_unsettled_idx ON payment_intents (created_at) WHERE settled_at IS NULL AND state IN ('live', 'succeeded');
