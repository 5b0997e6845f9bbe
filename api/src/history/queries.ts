import { AuditEventsFilter, describeEventType, type AuditEvent, type EntityHistory, type FieldChange, type HistoryEvent, type HistoryStreamType } from '@storage/contracts/history';
import { isEventType, streams, upcast } from '@storage/contracts/events';
import type { Actor, EventStore, RecordedEvent } from '@storage/eventstore/port';
import { sql, type DatabasePool, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import { toDomainEvent, type Aggregate } from '../commands/handle.ts';
import { customerAggregate } from '../customers/customer.ts';
import { facilityAggregate } from '../facilities/facility.ts';
import { invoiceAggregate } from '../invoices/invoice.ts';
import { allOf, containsPattern, listPage } from '../http/list-page.ts';
import { leaseAggregate } from '../leases/lease.ts';
import { lockAggregate } from '../locks/lock.ts';
import { unitAggregate } from '../units/unit.ts';

type EntityState = { status: string } & Record<string, unknown>;

const aggregates: Record<HistoryStreamType, Aggregate<EntityState>> = {
  customer: customerAggregate,
  unit: unitAggregate,
  lease: leaseAggregate,
  invoice: invoiceAggregate,
  lock: lockAggregate,
  facility: facilityAggregate,
};

/** A state as one level of named values: its own fields beside the `fields` it keeps. */
function flatten(state: EntityState): Record<string, unknown> {
  if (state.status === 'none') return {};
  // The aggregate's own status (current, archived, ended) is kept apart from a `status` field it holds.
  const { status, fields, terms, ...rest } = state;
  return { lifecycle: status, ...rest, ...(fields as Record<string, unknown> | undefined), ...(terms as Record<string, unknown> | undefined) };
}

function diff(before: EntityState, after: EntityState): FieldChange[] {
  const was = flatten(before);
  const is = flatten(after);
  return [...new Set([...Object.keys(was), ...Object.keys(is)])]
    .filter((field) => JSON.stringify(was[field]) !== JSON.stringify(is[field]))
    .map((field) => ({ field, before: was[field] ?? null, after: is[field] ?? null }));
}

const NameRow = z.object({ id: z.string(), name: z.string() });

/** "Jane Smith" for staff, "Renter Jane Renter" for a customer, "System" otherwise. */
export async function actorLabels(pool: DatabasePool, actors: readonly Actor[]): Promise<(actor: Actor) => string> {
  const ids = (type: Actor['type']) => [...new Set(actors.filter((a) => a.type === type).map((a) => a.id!))];
  const [staff, customers] = await Promise.all([
    pool.any(sql.type(NameRow)`
      SELECT id::text, trim(concat_ws(' ', first_name, last_name)) AS name FROM staff WHERE id = ANY(${sql.array(ids('staff'), 'uuid')})`),
    pool.any(sql.type(NameRow)`
      SELECT id::text, concat_ws(' ', first_name, last_name) AS name FROM customers WHERE id = ANY(${sql.array(ids('customer'), 'uuid')})`),
  ]);
  const staffNames = new Map(staff.map((r) => [r.id, r.name]));
  const customerNames = new Map(customers.map((r) => [r.id, r.name]));
  return (actor) => {
    if (actor.type === 'staff') return staffNames.get(actor.id) || 'Staff';
    if (actor.type === 'customer') return `Renter ${customerNames.get(actor.id) ?? ''}`.trim();
    return 'System';
  };
}

function fold(aggregate: Aggregate<EntityState>, recorded: readonly RecordedEvent[]): EntityState {
  return recorded.reduce((state, e) => aggregate.evolve(state, toDomainEvent(e)), aggregate.initial);
}

/** The entity's events with what each changed, and its state as of an instant; null when it has no events. */
export async function entityHistory(
  deps: { store: EventStore; pool: DatabasePool },
  streamType: HistoryStreamType,
  id: string,
  asOf: Date | null,
): Promise<EntityHistory | null> {
  const stream = streams[streamType](id);
  const aggregate = aggregates[streamType];
  const recorded = await deps.store.readStream(stream);
  if (recorded.length === 0) return null;
  const label = await actorLabels(deps.pool, recorded.map((e) => e.metadata.actor));
  let state = aggregate.initial;
  const events: HistoryEvent[] = recorded.map((e) => {
    const before = state;
    state = aggregate.evolve(state, toDomainEvent(e));
    return {
      id: e.id,
      type: e.type,
      description: describeEventType(e.type),
      occurredAt: e.metadata.occurredAt,
      recordedAt: e.recordedAt,
      actor: label(e.metadata.actor),
      changes: diff(before, state),
    };
  });
  const stateAsOf = asOf ? fold(aggregate, await deps.store.readStream(stream, { until: asOf })) : null;
  return {
    streamType,
    id,
    events,
    asOf: asOf?.toISOString() ?? null,
    stateAsOf: stateAsOf && stateAsOf.status !== 'none' ? flatten(stateAsOf) : null,
  };
}

const AuditRow = z.object({
  id: z.string(),
  type: z.string(),
  stream_name: z.string(),
  data: z.record(z.string(), z.unknown()),
  schema_version: z.number(),
  actor: z.object({ type: z.enum(['staff', 'customer', 'system']), id: z.string().optional() }),
  occurred_at: z.string(),
  recorded_at: z.string(),
});
type AuditRow = z.infer<typeof AuditRow>;
type AuditFilter = z.output<typeof AuditEventsFilter>;

const ACTOR_ID = sql.fragment`e.metadata->'actor'->>'id'`;
const OCCURRED_AT = sql.fragment`e.metadata->>'occurredAt'`;

function facilityStreams(facilityId: string): FragmentSqlToken {
  return sql.fragment`(e.stream_name = ${`facility-${facilityId}`} OR e.stream_name IN (
    SELECT 'unit-' || id FROM units WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'customer-' || id FROM customers WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'lease-' || l.id FROM leases l JOIN units u ON u.id = l.unit_id WHERE u.facility_id = ${facilityId}
    UNION ALL SELECT 'invoice-' || id FROM invoices WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'lock-' || id FROM locks WHERE facility_id = ${facilityId}))`;
}

function actorMatches(term: string): FragmentSqlToken {
  const pattern = containsPattern(term);
  return sql.fragment`(
    ('system' LIKE ${pattern} AND e.metadata->'actor'->>'type' = 'system')
    OR (e.metadata->'actor'->>'type' = 'staff' AND ${ACTOR_ID} IN (
      SELECT id::text FROM staff WHERE lower(concat_ws(' ', first_name, last_name, email)) LIKE ${pattern}))
    OR (e.metadata->'actor'->>'type' = 'customer' AND ${ACTOR_ID} IN (
      SELECT id::text FROM customers WHERE lower(concat_ws(' ', 'renter', first_name, last_name, email)) LIKE ${pattern})))`;
}

/** Days are compared as the ISO text occurredAt is stored in (UTC, so it sorts as time does). */
function auditWhere(filter: AuditFilter): FragmentSqlToken {
  const conditions: FragmentSqlToken[] = [];
  if (filter.type) conditions.push(sql.fragment`e.type = ${filter.type}`);
  if (filter.stream) conditions.push(sql.fragment`e.stream_name = ${filter.stream}`);
  if (filter.actor) conditions.push(actorMatches(filter.actor));
  if (filter.facilityId) conditions.push(facilityStreams(filter.facilityId));
  if (filter.from) conditions.push(sql.fragment`${OCCURRED_AT} >= ${filter.from}`);
  if (filter.to) conditions.push(sql.fragment`${OCCURRED_AT} < ${nextDay(filter.to)}`);
  return allOf(conditions);
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const auditList = (filter: AuditFilter) => ({
  select: sql.fragment`e.id::text, e.type, e.stream_name, e.data, (e.metadata->>'schemaVersion')::int AS schema_version, e.metadata->'actor' AS actor, ${OCCURRED_AT} AS occurred_at,
    to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`,
  from: sql.fragment`event_store.events e`,
  where: auditWhere(filter),
  orderBy: sql.fragment`${OCCURRED_AT} DESC, e.global_position DESC`,
});

async function toAuditEvents(pool: DatabasePool, rows: readonly AuditRow[]): Promise<AuditEvent[]> {
  const label = await actorLabels(pool, rows.map((r) => r.actor as Actor));
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    description: describeEventType(r.type),
    streamName: r.stream_name,
    // In its current shape, as history and projections see it.
    data: isEventType(r.type) ? upcast(r.type, r.schema_version, r.data).data : r.data,
    occurredAt: r.occurred_at,
    recordedAt: r.recorded_at,
    actor: label(r.actor as Actor),
  }));
}

/**
 * The event log, newest first. It reads the Postgres event store's table; the EventStoreDB
 * mode has no such table and would answer by reading `$all` backwards (not built yet).
 */
export async function listAuditEvents(
  pool: DatabasePool,
  filter: AuditFilter,
  paging: { page: number; pageSize: number },
): Promise<{ events: AuditEvent[]; total: number }> {
  const { rows, total } = await listPage(pool, AuditRow, auditList(filter), paging);
  return { events: await toAuditEvents(pool, rows), total };
}

const EXPORT_BATCH = 1000;

export async function* auditEventsMatching(pool: DatabasePool, filter: AuditFilter): AsyncGenerator<AuditEvent[]> {
  for (let page = 1; ; page++) {
    const { events } = await listAuditEvents(pool, filter, { page, pageSize: EXPORT_BATCH });
    if (events.length > 0) yield events;
    if (events.length < EXPORT_BATCH) return;
  }
}
