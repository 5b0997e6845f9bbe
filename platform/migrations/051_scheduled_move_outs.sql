-- A move-out dated after the facility's today is scheduled on the lease (lease_move_out_scheduled)
-- and done by the facility's day on that date. The leases projection keeps the scheduled day here
-- (null: none, or cancelled; kept once the lease ended on it), for the lease's screens and for the
-- billing day, which nominates the leases whose day has come (each lease's stream decides). No
-- lease has one before this release, so the rows already there need nothing.
ALTER TABLE leases ADD COLUMN move_out_date date;
CREATE INDEX leases_move_out_idx ON leases (move_out_date) WHERE move_out_date IS NOT NULL;
