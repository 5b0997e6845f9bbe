-- An online reservation keeps the renter's contact as typed; it has no customer while the contact
-- is pending (the email belongs to an existing customer: staff choose who it is at move-in).
-- 'converting': staff started the move-in and the recovery process finishes it if it stopped.
ALTER TABLE reservations ALTER COLUMN customer_id DROP NOT NULL;
ALTER TABLE reservations ADD COLUMN contact jsonb;
DROP INDEX IF EXISTS reservations_open_idx;
CREATE INDEX reservations_open_idx ON reservations (submitted_at) WHERE status IN ('submitted', 'converting');
-- The recovery process looks for units held for no open reservation.
CREATE INDEX reservations_unit_idx ON reservations (unit_id);
