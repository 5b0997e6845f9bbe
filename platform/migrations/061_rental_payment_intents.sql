-- A card payment for an online rental is made before its lease (and so its move-in invoice)
-- exists: the intent names the reservation it moves in, so every path that learns it succeeded
-- (the success report, the webhook, the reconciliation) moves the renter in first, or refunds.
ALTER TABLE payment_intents ADD COLUMN reservation_id uuid;
