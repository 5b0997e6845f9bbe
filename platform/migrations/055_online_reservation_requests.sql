-- Online reservation requests waiting for the visitor to confirm from the link mailed to the email
-- they typed (api/src/public/reservation-requests.ts). Until then nothing is held and no customer
-- is made, so a visitor cannot take units off the market or make customer records with addresses
-- that are not theirs. Owned by the API, not the projector (not built from events); a request
-- never confirmed is deleted once its link has expired. Only a hash of each link's token is kept.
CREATE TABLE online_reservation_requests (
  id uuid PRIMARY KEY,
  -- The reservation the request becomes: the same id on every confirmation of it.
  reservation_id uuid NOT NULL,
  token_hash text NOT NULL UNIQUE,
  -- The email typed, lowercased, and the phone's digits: the caps per renter count them.
  email text NOT NULL,
  phone_digits text NOT NULL,
  -- The request as the visitor sent it (unit, contact, move-in date, special requests).
  request jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  confirmed_at timestamptz
);
CREATE INDEX online_reservation_requests_email_idx ON online_reservation_requests (email, created_at DESC);
CREATE INDEX online_reservation_requests_expiry_idx ON online_reservation_requests (expires_at) WHERE confirmed_at IS NULL;
