-- Reactions (projector/src/reactions): processes that act on events after the read model has
-- applied them. Each follows the log with a checkpoint of its own, which a rebuild of the read
-- model neither resets nor replays: what a reaction did (a message, a lock overlocked) is done once.
CREATE TABLE reaction_checkpoints (
  name text PRIMARY KEY,
  position_hi numeric,
  position_lo numeric,
  -- The event it last failed on (null when it is not failing), how often, why, and when it tries again.
  failed_event_id text,
  failed_event_type text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz,
  failing_since timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
