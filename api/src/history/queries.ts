import { REDACTED, readableEvent, redactEvent, streams } from '@storage/contracts/events';
import {
  type AuditEvent,
  type AuditEventsFilter,
  auditSorting,
  describeEventType,
  type EntityHistory,
  type FieldChange,
  type HistoryEvent,
  type HistoryStreamType,
} from '@storage/contracts/history';
import { type Sort, sortOf } from '@storage/contracts/sorting';
import { type Aggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { facilityAggregate } from '@storage/domain/facilities/facility';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { lockAggregate } from '@storage/domain/locks/lock';
import { staffAggregate } from '@storage/domain/staff/staff';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Actor, EventStore, Position, RecordedEvent } from '@storage/eventstore/port';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, containsPattern, listPage, orderBy, type SortColumns } from '../http/list-page.ts';
import { billingEventIds, describeBillingEvent } from './billing-words.ts';
import { describeMessageEvent } from './message-words.ts';
import { entityNames, fieldLabel, idsIn, type Names, streamEntity, streamEntityText, valueText } from './readable.ts';

type EntityState = { status: string } & Record<string, unknown>;

const aggregates: Record<HistoryStreamType, Aggregate<EntityState>> = {
  customer: customerAggregate,
  unit: unitAggregate,
  lease: leaseAggregate,
  invoice: invoiceAggregate,
  lock: lockAggregate,
  facility: facilityAggregate,
  staff: staffAggregate,
};

/** A state as one level of named values: its own fields beside the `fields` it keeps. */
const billingEventTypes = new Set([
  'invoice_line_added',
  'customer_standing_changed',
  'lease_rent_billed',
  'billing_settings_updated',
  'delinquency_settings_updated',
  'delinquency_step_taken',
  'delinquency_cleared',
  'delinquency_paused',
  'delinquency_resumed',
  'lease_rent_change_scheduled',
  'lease_rent_change_cancelled',
]);

/** What an aggregate keeps for its own decisions, told by its events' sentences instead (a lease's rent changes). */
const bookkeeping = new Set(['rentChanges', 'lastPeriodStart']);

function flatten(state: EntityState): Record<string, unknown> {
  if (state.status === 'none') return {};
  // The aggregate's own status (current, archived, ended) is kept apart from a `status` field it holds.
  const { status, fields, terms, ...all } = state;
  const rest = Object.fromEntries(Object.entries(all).filter(([field]) => !bookkeeping.has(field)));
  return { lifecycle: status, ...rest, ...(fields as Record<string, unknown> | undefined), ...(terms as Record<string, unknown> | undefined) };
}

type RawChange = Pick<FieldChange, 'field' | 'before' | 'after'>;

function diff(before: EntityState, after: EntityState): RawChange[] {
  const was = flatten(before);
  const is = flatten(after);
  return [...new Set([...Object.keys(was), ...Object.keys(is)])]
    .filter((field) => JSON.stringify(was[field]) !== JSON.stringify(is[field]))
    .map((field) => ({ field, before: was[field] ?? null, after: is[field] ?? null }));
}

function inWords(change: RawChange, names: Names): FieldChange {
  const { field, before, after } = change;
  return { ...change, label: fieldLabel(field), beforeText: valueText(field, before, names), afterText: valueText(field, after, names) };
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

/** An event as history shows it: in its current shape, its secret fields redacted (the one rule every reader of event data follows). */
function shownEvent(e: RecordedEvent) {
  return redactEvent(toDomainEvent(e));
}

function fold(aggregate: Aggregate<EntityState>, recorded: readonly RecordedEvent[]): EntityState {
  return recorded.reduce((state, e) => aggregate.evolve(state, shownEvent(e)), aggregate.initial);
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
  const label = await actorLabels(
    deps.pool,
    recorded.map((e) => e.metadata.actor),
  );
  let state = aggregate.initial;
  const changes = recorded.map((e) => {
    const before = state;
    state = aggregate.evolve(state, shownEvent(e));
    return diff(before, state);
  });
  const asOfState = asOf ? fold(aggregate, await deps.store.readStream(stream, { until: asOf })) : null;
  const stateAsOf = asOfState && asOfState.status !== 'none' ? flatten(asOfState) : null;
  const billingData = recorded.flatMap((e) => (billingEventTypes.has(e.type) ? [shownEvent(e).data as Record<string, unknown>] : []));
  const names = await entityNames(
    deps.pool,
    idsIn([...changes.flat().flatMap((c) => [{ [c.field]: c.before }, { [c.field]: c.after }]), ...(stateAsOf ? [stateAsOf] : []), ...billingData]),
  );
  const events: HistoryEvent[] = recorded.map((e, i) => ({
    id: e.id,
    type: e.type,
    description:
      describeBillingEvent(e.type, shownEvent(e).data as Record<string, unknown>, names) ??
      describeMessageEvent(e.type, shownEvent(e).data as Record<string, unknown>) ??
      describeEventType(e.type),
    occurredAt: e.metadata.occurredAt,
    recordedAt: e.recordedAt,
    actor: label(e.metadata.actor),
    changes: changes[i]!.map((change) => inWords(change, names)),
  }));
  return {
    streamType,
    id,
    events,
    asOf: asOf?.toISOString() ?? null,
    stateAsOf,
    stateAsOfText: stateAsOf
      ? Object.entries(stateAsOf).flatMap(([field, value]) => {
          const text = valueText(field, value, names);
          return text === null ? [] : [{ field, label: fieldLabel(field), text }];
        })
      : null,
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
type AuditSort = Sort<keyof typeof auditSorting.columns>;
type AuditPage = { events: AuditEvent[]; total: number };
type Paging = { page: number; pageSize: number };

// What each filter means, stated once for both ways of reading the log below: the SQL path uses
// these as subqueries, the log path runs them once and tests each event against the answers.

/** A facility's events are those of its own stream and of these: its units', renters', leases', invoices' and locks'. */
function facilityMemberStreams(facilityId: string): FragmentSqlToken {
  return sql.fragment`SELECT 'unit-' || id AS stream_name FROM units WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'customer-' || id FROM customers WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'lease-' || l.id FROM leases l JOIN units u ON u.id = l.unit_id WHERE u.facility_id = ${facilityId}
    UNION ALL SELECT 'invoice-' || id FROM invoices WHERE facility_id = ${facilityId}
    UNION ALL SELECT 'lock-' || id FROM locks WHERE facility_id = ${facilityId}`;
}

/** Staff whose name or email contains the term (a `containsPattern`). */
function staffMatching(pattern: string): FragmentSqlToken {
  return sql.fragment`SELECT id::text AS id FROM staff WHERE lower(concat_ws(' ', first_name, last_name, email)) LIKE ${pattern}`;
}

/** Renters whose "renter <name>" or email contains the term, as their actor label reads. */
function customersMatching(pattern: string): FragmentSqlToken {
  return sql.fragment`SELECT id::text AS id FROM customers WHERE lower(concat_ws(' ', 'renter', first_name, last_name, email)) LIKE ${pattern}`;
}

/** The System actor matches a term that is part of the word "system". */
function systemMatches(term: string): boolean {
  return 'system'.includes(term.toLowerCase());
}

/**
 * Days are compared as the ISO text occurredAt is stored in (UTC, so it sorts as time does; the
 * database's collation is C, so SQL and JavaScript compare that text alike): from the start of
 * `from` up to, not including, the day after `to`.
 */
function occurredBounds(filter: AuditFilter): { from: string | null; before: string | null } {
  return { from: filter.from ?? null, before: filter.to ? nextDay(filter.to) : null };
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

// ---- The SQL path: the Postgres event store's own table, whose indexes serve these filters.

const ACTOR_ID = sql.fragment`e.metadata->'actor'->>'id'`;
const ACTOR_TYPE = sql.fragment`e.metadata->'actor'->>'type'`;
const OCCURRED_AT = sql.fragment`e.metadata->>'occurredAt'`;

function actorMatches(term: string): FragmentSqlToken {
  const pattern = containsPattern(term);
  return sql.fragment`(
    ${systemMatches(term) ? sql.fragment`${ACTOR_TYPE} = 'system'` : sql.fragment`false`}
    OR (${ACTOR_TYPE} = 'staff' AND ${ACTOR_ID} IN (${staffMatching(pattern)}))
    OR (${ACTOR_TYPE} = 'customer' AND ${ACTOR_ID} IN (${customersMatching(pattern)})))`;
}

function auditWhere(filter: AuditFilter): FragmentSqlToken {
  const conditions: FragmentSqlToken[] = [];
  const { from, before } = occurredBounds(filter);
  if (filter.type) conditions.push(sql.fragment`e.type = ${filter.type}`);
  if (filter.stream) conditions.push(sql.fragment`e.stream_name = ${filter.stream}`);
  if (filter.actor) conditions.push(actorMatches(filter.actor));
  if (filter.facilityId) {
    const facilityId = filter.facilityId;
    conditions.push(sql.fragment`(e.stream_name = ${streams.facility(facilityId)} OR e.stream_name IN (${facilityMemberStreams(facilityId)}))`);
  }
  if (from) conditions.push(sql.fragment`${OCCURRED_AT} >= ${from}`);
  if (before) conditions.push(sql.fragment`${OCCURRED_AT} < ${before}`);
  return allOf(conditions);
}

// Recorded is the log's own order; events that occurred at one instant keep the log's order, as
// the log path breaks those ties (indexes events_occurred_at_log_order_idx and events_commit_order).
const sortColumns: SortColumns<keyof typeof auditSorting.columns> = {
  occurredAt: [OCCURRED_AT, sql.fragment`e.transaction_id`],
  recordedAt: sql.fragment`e.transaction_id`,
};

const auditList = (filter: AuditFilter, sort: AuditSort) => ({
  select: sql.fragment`e.id::text, e.type, e.stream_name, e.data, (e.metadata->>'schemaVersion')::int AS schema_version, e.metadata->'actor' AS actor, ${OCCURRED_AT} AS occurred_at,
    to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`,
  from: sql.fragment`event_store.events e`,
  where: auditWhere(filter),
  orderBy: orderBy(sortColumns, sort, sql.fragment`e.global_position`),
});

async function toAuditEvents(pool: DatabasePool, rows: readonly AuditRow[]): Promise<AuditEvent[]> {
  const [label, names] = await Promise.all([
    actorLabels(
      pool,
      rows.map((r) => r.actor as Actor),
    ),
    entityNames(pool, [
      ...rows.flatMap((r) => streamEntity(r.stream_name) ?? []),
      // The billing events name their invoice, renter or facility in their sentence.
      ...rows.flatMap((r) => (billingEventTypes.has(r.type) ? [...idsIn([r.data]), ...billingEventIds(r.type, r.data)] : [])),
    ]),
  ]);
  return rows.map((r) => {
    // In its current shape, as history and projections see it, its secret fields redacted.
    const data = readableEvent(r.type, r.schema_version, r.data);
    return {
      id: r.id,
      type: r.type,
      description: describeBillingEvent(r.type, data, names) ?? describeMessageEvent(r.type, data) ?? describeEventType(r.type),
      streamName: shownStreamName(r.stream_name),
      entity: streamEntityText(r.stream_name, names),
      data,
      occurredAt: r.occurred_at,
      recordedAt: r.recorded_at,
      actor: label(r.actor as Actor),
    };
  });
}

async function listAuditEventsBySql(pool: DatabasePool, filter: AuditFilter, sort: AuditSort, paging: Paging): Promise<AuditPage> {
  const { rows, total } = await listPage(pool, AuditRow, auditList(filter, sort), paging);
  return { events: await toAuditEvents(pool, rows), total };
}

// ---- The log path: any event store, through the port's readAllBackwards. It sees what readAll
// passes, so an event just committed may show there a moment after the SQL path would show it.

type LoggedEvent = Pick<RecordedEvent, 'type' | 'streamName' | 'metadata'>;

/** The filter as a test of one event; the sets it needs are read once from the read tables. */
async function auditEventTest(pool: DatabasePool, filter: AuditFilter): Promise<(event: LoggedEvent) => boolean> {
  const IdRow = z.object({ id: z.string() });
  const StreamRow = z.object({ stream_name: z.string() });
  const pattern = filter.actor ? containsPattern(filter.actor) : null;
  const [staff, customers, facilityStreams] = await Promise.all([
    pattern ? pool.anyFirst(sql.type(IdRow)`${staffMatching(pattern)}`).then((ids) => new Set(ids)) : null,
    pattern ? pool.anyFirst(sql.type(IdRow)`${customersMatching(pattern)}`).then((ids) => new Set(ids)) : null,
    filter.facilityId
      ? pool
          .anyFirst(sql.type(StreamRow)`${facilityMemberStreams(filter.facilityId)}`)
          .then((names) => new Set([streams.facility(filter.facilityId!), ...names]))
      : null,
  ]);
  const system = filter.actor ? systemMatches(filter.actor) : true;
  const { from, before } = occurredBounds(filter);
  return (event) => {
    const { actor, occurredAt } = event.metadata;
    if (filter.type && event.type !== filter.type) return false;
    if (filter.stream && event.streamName !== filter.stream) return false;
    if (staff && customers) {
      const matches = actor.type === 'system' ? system : actor.type === 'staff' ? staff.has(actor.id) : customers.has(actor.id);
      if (!matches) return false;
    }
    if (facilityStreams && !facilityStreams.has(event.streamName)) return false;
    if (from && !(occurredAt >= from)) return false;
    if (before && !(occurredAt < before)) return false;
    return true;
  };
}

const LOG_BATCH = 1000;

async function* logNewestFirst(store: EventStore): AsyncGenerator<RecordedEvent[]> {
  let before: Position | null = null;
  for (;;) {
    const batch = await store.readAllBackwards({ before, limit: LOG_BATCH });
    if (batch.length > 0) yield batch;
    if (batch.length < LOG_BATCH) return;
    before = batch.at(-1)!.position;
  }
}

interface Match {
  event: RecordedEvent;
  /** Its place in the backwards read: 0 is the newest in the log. */
  seq: number;
}

/** The SQL path's order: by occurredAt (as text, as there) then the log's order, or by the log's order alone; newest first, or reversed. */
function auditOrder(sort: AuditSort): (a: Match, b: Match) => number {
  const direction = sort.order === 'desc' ? 1 : -1;
  return (a, b) => {
    const x = a.event.metadata.occurredAt;
    const y = b.event.metadata.occurredAt;
    if (sort.sort === 'occurredAt' && x !== y) return (x > y ? -1 : 1) * direction;
    return (a.seq - b.seq) * direction;
  };
}

/**
 * Reads the WHOLE log once, newest first, and keeps the first `keep` matching events in audit
 * order (Infinity keeps all), counting every match. Events occur (occurredAt: seeds and imports
 * backdate it) in another order than they were recorded, so no page and no total is known before
 * the end of the log: every request costs a read of the entire log, in time O(log size) and in
 * memory O(keep). Measured on this project's 2-core machine with the Postgres store forced down
 * this path: 7 to 9 s a request for the 1.08 million events of the large seed, against 50 to 600 ms
 * by SQL. Acceptable for an auditor's screen on a store without a queryable table; the Postgres
 * store never comes here.
 */
async function scanLog(
  store: EventStore,
  matches: (event: LoggedEvent) => boolean,
  sort: AuditSort,
  keep: number,
): Promise<{ events: RecordedEvent[]; total: number }> {
  const order = auditOrder(sort);
  let kept: Match[] = [];
  let total = 0;
  let seq = 0;
  for await (const batch of logNewestFirst(store)) {
    for (const event of batch) {
      seq += 1;
      if (!matches(event)) continue;
      total += 1;
      kept.push({ event, seq });
      if (kept.length >= 2 * keep + LOG_BATCH) kept = kept.sort(order).slice(0, keep);
    }
  }
  return {
    events: kept
      .sort(order)
      .slice(0, keep)
      .map((m) => m.event),
    total,
  };
}

/** A gate code's claim is a stream named after the facility and the code (a secret): shown without the code. */
const GATE_CODE_CLAIM = /^(unique-gate-code-[^:]*:).+$/;
export function shownStreamName(streamName: string): string {
  return streamName.replace(GATE_CODE_CLAIM, `$1${REDACTED}`);
}

function auditRowOf(event: RecordedEvent): AuditRow {
  return {
    id: event.id,
    type: event.type,
    stream_name: event.streamName,
    data: event.data,
    schema_version: event.metadata.schemaVersion,
    actor: event.metadata.actor,
    occurred_at: event.metadata.occurredAt,
    recorded_at: event.recordedAt,
  };
}

async function listAuditEventsFromLog(deps: AuditDeps, filter: AuditFilter, sort: AuditSort, paging: Paging): Promise<AuditPage> {
  const offset = (paging.page - 1) * paging.pageSize;
  const { events, total } = await scanLog(deps.store, await auditEventTest(deps.pool, filter), sort, offset + paging.pageSize);
  return { events: await toAuditEvents(deps.pool, events.slice(offset).map(auditRowOf)), total };
}

// ---- Both paths.

export interface AuditDeps {
  store: EventStore;
  /** The read model's database; with the Postgres store, also the event store's. */
  pool: DatabasePool;
}

/**
 * How the event log is read. 'sql' queries the Postgres store's table event_store.events, which
 * connectEventStore keeps in the read model's database; 'log' reads any store through the port.
 */
export type AuditSource = 'sql' | 'log';

export function auditSourceOf(store: EventStore): AuditSource {
  return store.kind === 'postgres' ? 'sql' : 'log';
}

/** The event log in the order asked (by default newest first, by when the events occurred), one page of it and the total. */
export async function listAuditEvents(
  deps: AuditDeps,
  filter: AuditFilter & Partial<AuditSort>,
  paging: Paging,
  source: AuditSource = auditSourceOf(deps.store),
): Promise<AuditPage> {
  const sort = sortOf(auditSorting, filter);
  return source === 'sql' ? listAuditEventsBySql(deps.pool, filter, sort, paging) : listAuditEventsFromLog(deps, filter, sort, paging);
}

const EXPORT_BATCH = 1000;

/** All the events the filter matches, in the order of the log screen, a batch at a time. */
export async function* auditEventsMatching(
  deps: AuditDeps,
  filter: AuditFilter,
  source: AuditSource = auditSourceOf(deps.store),
): AsyncGenerator<AuditEvent[]> {
  if (source === 'sql') {
    for (let page = 1; ; page++) {
      const { events } = await listAuditEventsBySql(deps.pool, filter, auditSorting.byDefault, { page, pageSize: EXPORT_BATCH });
      if (events.length > 0) yield events;
      if (events.length < EXPORT_BATCH) return;
    }
  }
  // One read of the log for the whole export (not one per batch), holding every match in memory.
  const { events } = await scanLog(deps.store, await auditEventTest(deps.pool, filter), auditSorting.byDefault, Infinity);
  for (let i = 0; i < events.length; i += EXPORT_BATCH) {
    yield await toAuditEvents(deps.pool, events.slice(i, i + EXPORT_BATCH).map(auditRowOf));
  }
}
