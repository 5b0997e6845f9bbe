-- A projection that failed on an event: the projector's runner writes the row in the transaction
-- that holds the projections' checkpoints, retries the event after next_attempt_at (1 s, 2 s, 4 s
-- ... at most 5 min after each failure), and deletes the row in the transaction that applies it.
-- holds: the projections that read this one's tables (or whose tables it reads), held at the same
-- event so each still sees the others' rows as of every event. Not part of the read model: a
-- rebuild clears the rows of the projections it swaps in.
CREATE TABLE projection_failures (
  projection text PRIMARY KEY,
  event_id text NOT NULL,
  event_type text NOT NULL,
  position_hi numeric(20, 0) NOT NULL,
  position_lo numeric(20, 0) NOT NULL,
  error text NOT NULL,
  attempts integer NOT NULL,
  first_failed_at timestamptz NOT NULL,
  last_failed_at timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  holds text[] NOT NULL DEFAULT '{}'
);
