-- "Mark all as read": one row per scope (a facility's id, or 'all') holding when it was last
-- used; a notification raised before its facility's mark or the 'all' mark shows as read. One
-- event marks every notification of the scope, however many there are.
CREATE TABLE notification_read_marks (
  scope text PRIMARY KEY,
  read_before timestamptz NOT NULL
);
