-- The payment each money entry is about: a payment's own id, and for a refund staff gave, the id
-- of the payment it gave back. The renter's payments list (api/src/portal/payments.ts) reads
-- each payment whole from the ledger alone: what it paid, what became credit, what went back.
ALTER TABLE ledger_entries ADD COLUMN payment_id uuid;
CREATE INDEX ledger_entries_payment_idx ON ledger_entries (payment_id) WHERE payment_id IS NOT NULL;

-- Entries written before: a payment's row in payments was written from the same event, so it has
-- the same invoice and moment. A refund recorded before its provider made it (pending first) has
-- no such twin and keeps none until the ledger is rebuilt (`npm run ops -- rebuild`).
UPDATE ledger_entries le SET payment_id = p.id
FROM payments p
WHERE le.kind = 'payment' AND le.payment_id IS NULL AND p.refund_of IS NULL AND p.status = 'completed'
  AND p.invoice_id = le.invoice_id AND p.created_at = le.recorded_at AND p.amount = -le.amount;
UPDATE ledger_entries le SET payment_id = p.refund_of
FROM payments p
WHERE le.kind = 'refund' AND le.payment_id IS NULL AND p.refund_of IS NOT NULL
  AND p.invoice_id = le.invoice_id AND p.created_at = le.recorded_at AND p.amount = le.amount;
