-- Notes staff keep on a customer (customer_note_added), newest first on the customer page.
CREATE TABLE customer_notes (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  text text NOT NULL,
  author_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX customer_notes_customer_idx ON customer_notes (customer_id, created_at DESC, id);
