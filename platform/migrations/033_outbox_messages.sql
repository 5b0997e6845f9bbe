-- Messages to renters (issue 13): the outbox. A row per message, under an id derived from the
-- event it tells of and its template, written by the messages reaction (ON CONFLICT DO NOTHING:
-- a message is written once whatever replays) and delivered by the outbox worker with retries.
-- Not a read-model table: no projection writes it and a rebuild never touches it, so a rebuild
-- sends nothing again. It is also the record of what was sent ("Sent messages").
CREATE TABLE IF NOT EXISTS outbox_messages (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL,
  customer_id uuid,
  facility_id uuid,
  template_key text NOT NULL,
  to_address text,
  subject text NOT NULL,
  -- The body as stored shows a gate code only as [gate code]: a secret never rests in a table.
  -- The worker fills in the code of this lease (its gate-code stream) as it sends.
  body text NOT NULL,
  gate_code_lease_id uuid,
  -- pending (to send), sent, failed (gave up after the last attempt), suppressed (opted out, no address)
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'suppressed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_error text,
  -- Where the message was delivered: 'smtp', or 'development' (kept here only, no SMTP configured).
  transport text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
-- The worker's scan: due pending rows, oldest due first.
CREATE INDEX IF NOT EXISTS outbox_messages_due_idx ON outbox_messages (next_attempt_at) WHERE status = 'pending';
-- The Sent messages list, newest first, per facility and per renter.
CREATE INDEX IF NOT EXISTS outbox_messages_created_idx ON outbox_messages (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS outbox_messages_facility_idx ON outbox_messages (facility_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS outbox_messages_customer_idx ON outbox_messages (customer_id, created_at DESC, id DESC);

-- Every attempt to deliver a message: when, and how it ended.
CREATE TABLE IF NOT EXISTS outbox_attempts (
  message_id uuid NOT NULL REFERENCES outbox_messages (id),
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  ok boolean NOT NULL,
  error text,
  PRIMARY KEY (message_id, attempt)
);
