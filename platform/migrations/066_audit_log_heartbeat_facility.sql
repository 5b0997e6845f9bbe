-- A lock's routine heartbeats are on a stream of their own (lock-heartbeats-<lock id>), which the
-- audit-log projection did not take for the lock's: their rows kept no facility, so a facility's
-- log left out its locks' reports. The projection files them under the lock's facility from now
-- on; rows already logged get the facility the lock had when it reported: that of the lock's own
-- event logged last before it (each of those rows keeps the lock's facility as that event left it).
UPDATE audit_log h
SET facility_id = (
  SELECT l.facility_id FROM audit_log l
  WHERE l.stream_name = 'lock-' || substr(h.stream_name, length('lock-heartbeats-') + 1) AND l.position < h.position
  ORDER BY l.position DESC
  LIMIT 1
)
WHERE h.stream_name LIKE 'lock-heartbeats-%' AND h.facility_id IS NULL;
