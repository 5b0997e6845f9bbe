-- Steps the write side takes once per install when a release needs the history written by an
-- earlier one brought into a new shape of its streams (domain/src/accounts/invoice-listing.ts:
-- the invoices written before accounts listed them). Appended events, never edited history.
CREATE TABLE write_side_upgrades (
  name text PRIMARY KEY,
  completed_at timestamptz NOT NULL DEFAULT now(),
  detail text NOT NULL
);
