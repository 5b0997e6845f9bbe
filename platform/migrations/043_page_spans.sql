-- A page number typed with no cursor, deep in a long list (issue 14): the audit log's page 10,000
-- or the activity feed's page 2,000 counted its way there by OFFSET (318 and 98 ms on the large
-- history). Their projections now keep how many rows each day holds, so such a page is read from
-- the day it starts in (api/src/http/list-page.ts, PageSpans): the days after it are summed
-- (under a thousand rows here) and the page is an index range with an OFFSET of at most a day.
-- Counters, not ordinals: an event that occurred earlier than the newest ones (a back-dated one)
-- adds one to its day, where a dense number per row would renumber every row after it.

-- The audit log's entries per day they occurred on, the first ten characters of occurred_at
-- (ISO-8601, UTC): for any day d, left(occurred_at, 10) >= d exactly when occurred_at >= d.
CREATE TABLE audit_log_days (
  day text COLLATE "C" NOT NULL,
  entries bigint NOT NULL DEFAULT 0,
  CONSTRAINT audit_log_days_key UNIQUE (day)
);

-- The activity feed's entries per UTC day of created_at, as the start of that day.
CREATE TABLE activity_days (
  day timestamptz NOT NULL,
  entries bigint NOT NULL DEFAULT 0,
  CONSTRAINT activity_days_key UNIQUE (day)
);

-- The rows already there (a rebuild counts them from the history instead). The migrations run in
-- one transaction; no projection writes these tables until it commits.
LOCK TABLE audit_log, activities IN SHARE MODE;
INSERT INTO audit_log_days (day, entries) SELECT left(occurred_at, 10), count(*) FROM audit_log GROUP BY 1;
INSERT INTO activity_days (day, entries)
SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*) FROM activities GROUP BY 1;

-- The invoices sorted by number or by customer: a page number typed deep in them skipped every
-- row before it through the table (17-90 ms at page 648 of 1,296); with the sorted columns in the
-- index too, the skip reads the index alone (index-only, 4-8 ms) wherever vacuum has marked the
-- table's pages all-visible, as the other sorts' indexes already allowed.
DROP INDEX invoices_number_order_idx;
CREATE INDEX invoices_number_order_idx ON invoices ((lower(invoice_number) COLLATE "C"), id) INCLUDE (invoice_number);
DROP INDEX invoices_customer_order_idx;
CREATE INDEX invoices_customer_order_idx ON invoices ((lower(customer_last_name) COLLATE "C"), (lower(customer_first_name) COLLATE "C"), id)
  INCLUDE (customer_last_name, customer_first_name);
