-- Responses of commands sent with an Idempotency-Key: a repeated key gets the first answer back
-- and appends nothing. Owned by the API, not the projector (it is not built from events).
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status_code integer,
  content_type text,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
