import { readStreamName, redactEvent, shownStreamName } from '@storage/contracts/events';
import type { ProjectedEvent, Projection } from '../projection.ts';
import { logOrderOf } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';

// The auditors' event log: one row per event, in the shape its screen shows and filters on (see
// migration 036). Rows are only ever added (appended), one multi-row write per batch through the session.

/**
 * The facility the stream's entity belongs to as of the event (its row as the projections before
 * this one left it). A renter's account, delinquency and saved cards are the renter's; a lease's
 * gate code the lease's; an invoice's autopay charges the invoice's; a lock's routine heartbeats
 * (a stream of their own) the lock's; a facility's billing days, access logs, notification marks
 * and settings name it.
 */
async function facilityOf(rows: ReadModelSession, event: ProjectedEvent): Promise<string | null> {
  const named = readStreamName(event.streamName);
  if (!named) return null;
  const id = named.parts[0]!;
  const ofCustomer = async () => (await rows.get('customers', id))?.facility_id ?? null;
  const ofLease = async () => (await rows.get('units', (await rows.get('leases', id))?.unit_id))?.facility_id ?? null;
  const ofInvoice = async () => (await rows.get('invoices', id))?.facility_id ?? null;
  switch (named.kind) {
    case 'facility':
    case 'billingDay':
    case 'accessLog':
    case 'notificationMarks':
    case 'settings':
      return facilityNamed(id);
    case 'unit':
      return (await rows.get('units', id))?.facility_id ?? null;
    case 'customer':
    case 'account':
    case 'delinquency':
    case 'paymentProfile':
      return ofCustomer();
    case 'lease':
    case 'gateCode':
      return ofLease();
    case 'invoice':
    case 'autopayCharges':
      return ofInvoice();
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

/** A facility's id as the streams named by a facility write it; null for the others ('none', 'all', 'business'). */
const facilityNamed = (scope: string) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(scope) ? scope : null);

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
