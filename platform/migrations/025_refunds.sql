-- Refunds staff give (issue 12): how much of each payment has been given back. A refund is also a
-- row of its own in payments (status 'refunded', its id the refund's), beside the payment it returns.
ALTER TABLE payments ADD COLUMN amount_refunded numeric(10, 2) NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN refund_of uuid;
CREATE INDEX payments_refund_of_idx ON payments (refund_of) WHERE refund_of IS NOT NULL;
