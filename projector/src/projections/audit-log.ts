import { readStreamName, redactEvent, shownStreamName } from '@storage/contracts/events';
import type { ProjectedEvent, Projection } from '../projection.ts';
import { logOrderOf } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';

// The auditors' event log: one row per event, in the shape its screen shows and filters on (see
// migration 036). Rows are only ever added (appended), one multi-row write per batch through the session.

/** The facility the stream's entity belongs to as of the event (its row as the projections before this one left it). */
async function facilityOf(rows: ReadModelSession, event: ProjectedEvent): Promise<string | null> {
  const named = readStreamName(event.streamName);
  const id = named?.parts[0];
  switch (named?.kind) {
    case 'facility':
      return id!;
    case 'unit':
      return (await rows.get('units', id))?.facility_id ?? null;
    case 'customer':
      return (await rows.get('customers', id))?.facility_id ?? null;
    case 'lease':
      return (await rows.get('units', (await rows.get('leases', id))?.unit_id))?.facility_id ?? null;
    case 'invoice':
      return (await rows.get('invoices', id))?.facility_id ?? null;
    // A lock's routine heartbeats are on a stream of their own: they are the lock's events all the same.
    case 'lock':
    case 'lockHeartbeats':
      return (await rows.get('locks', id))?.facility_id ?? null;
    case 'merchandise':
      // Every event of an item names the facility that sells it.
      return (event.data as { facilityId?: string }).facilityId ?? null;
    default:
      return null;
  }
}

async function auditRow(rows: ReadModelSession, event: ProjectedEvent) {
  const { actor, occurredAt, schemaVersion, correlationId, causationId } = event.metadata;
  return {
    position: logOrderOf(event.position),
    event_id: event.id,
    type: event.type,
    stream_name: shownStreamName(event.streamName),
    facility_id: await facilityOf(rows, event),
    actor_type: actor.type,
    actor_id: actor.id ?? null,
    occurred_at: occurredAt,
    recorded_at: event.recordedAt,
    schema_version: schemaVersion,
    correlation_id: correlationId,
    causation_id: causationId,
    stream_revision: event.revision.toString(),
    // The one redaction rule: what the log shows is all it keeps.
    data: redactEvent(event).data as Record<string, unknown>,
  };
}

export const auditLogProjection: Projection = {
  name: 'audit-log',
  tables: ['audit_log', 'audit_log_days'],
  reads: ['units', 'customers', 'leases', 'invoices', 'locks'],
  async apply(rows, event) {
    const row = await auditRow(rows, event);
    // Nothing reads the rows back: appended, a rebuild copies them out without holding them.
    await rows.append('audit_log', row);
    // Rows are only added, once per event: each adds one to its day (migration 043).
    rows.count('audit_log_days', { day: row.occurred_at.slice(0, 10) }, { entries: 1 });
  },
};
