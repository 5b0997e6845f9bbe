-- Where a renter's online payment for their reservation stands, so staff see it before moving them
-- in at the desk (reservation_checkout_started, reservation_checkout_refunded): 'paying' once a
-- card payment is under way, 'refunded' once it was given back because the rental could not be
-- made, null when the renter never paid online. online_checkout_at: when it came to stand so.
ALTER TABLE reservations
  ADD COLUMN online_checkout text CHECK (online_checkout IN ('paying', 'refunded')),
  ADD COLUMN online_checkout_at timestamptz;
