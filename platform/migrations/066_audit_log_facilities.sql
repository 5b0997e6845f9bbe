-- The audit log's facility filter left out the events of the streams that belong to an entity of a
-- facility without being its own stream: a renter's account, delinquency and saved cards, a
-- lease's gate code, an invoice's autopay charges, a lock's routine heartbeats, and the streams a
-- facility names (its billing days, access logs, notification marks, settings). The audit-log
-- projection files them under that facility from now on; rows already logged get it here: the
-- facility the entity had when the event happened, that of the entity's own event logged last
-- before it (each of those rows keeps the entity's facility as that event left it), or the facility
-- the stream names.
UPDATE audit_log h
SET facility_id = (
  SELECT e.facility_id FROM audit_log e
  WHERE e.stream_name = owner.entity_stream AND e.position < h.position
  ORDER BY e.position DESC
  LIMIT 1
)
FROM (
  SELECT a.position,
         CASE
           WHEN a.stream_name LIKE 'lock-heartbeats-%' THEN 'lock-' || substr(a.stream_name, 17)
           WHEN a.stream_name LIKE 'account-%' THEN 'customer-' || substr(a.stream_name, 9)
           WHEN a.stream_name LIKE 'delinquency-%' THEN 'customer-' || substr(a.stream_name, 13)
           WHEN a.stream_name LIKE 'payment-profile-%' THEN 'customer-' || substr(a.stream_name, 17)
           WHEN a.stream_name LIKE 'gate-code-%' THEN 'lease-' || substr(a.stream_name, 11)
           WHEN a.stream_name LIKE 'autopay-%' THEN 'invoice-' || substr(a.stream_name, 9)
         END AS entity_stream
  FROM audit_log a
  WHERE a.facility_id IS NULL
) AS owner
WHERE h.position = owner.position AND owner.entity_stream IS NOT NULL;

UPDATE audit_log
SET facility_id = substring(stream_name FROM '^(?:billing-day|access-log|notification-marks|settings)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})')::uuid
WHERE facility_id IS NULL
  AND stream_name ~ '^(billing-day|access-log|notification-marks|settings)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
