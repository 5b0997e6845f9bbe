import { redactEvent, streams } from '@storage/contracts/events';
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
import type { ListPageInfo, Paging } from '@storage/contracts/paging';
import { type Sort, sortOf } from '@storage/contracts/sorting';
import { type Aggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { facilityAggregate } from '@storage/domain/facilities/facility';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { lockAggregate } from '@storage/domain/locks/lock';
import { staffAggregate } from '@storage/domain/staff/staff';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Actor, EventStore, RecordedEvent } from '@storage/eventstore/port';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, containsPattern, type ListSql, listPage, NO_CONDITION, orderBy, type PageSpans, type SortColumns } from '../http/list-page.ts';
import { billingEventIds, describeBillingEvent } from './billing-words.ts';
import { describeMessageEvent } from './message-words.ts';
import { entityNames, fieldLabel, idsIn, type Names, valueText } from './readable.ts';
import { streamEntityText, streamNameRefs } from './stream-words.ts';

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
  'lease_move_out_scheduled',
  'lease_move_out_cancelled',
  'lease_protection_changed',
  'lease_insurance_proof_recorded',
  'lease_promotion_applied',
  'protection_settings_updated',
  'promotions_updated',
  'lease_terms_updated',
]);

/**
 * What an aggregate keeps for its own decisions, told by its events' sentences instead (a lease's
 * rent changes and scheduled move-out, a customer's leases, a staff member's two-factor factor).
 */
const bookkeeping = new Set(['rentChanges', 'lastPeriodStart', 'leases', 'moveOut', 'twoFactorId', 'protection', 'insuranceProof', 'promotion']);

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
  event_id: z.string(),
  type: z.string(),
  stream_name: z.string(),
  data: z.record(z.string(), z.unknown()),
  actor_type: z.enum(['staff', 'customer', 'system']),
  actor_id: z.string().nullable(),
  occurred_at: z.string(),
  recorded_at: z.string(),
  position: z.string(),
  stream_revision: z.string().nullable(),
  correlation_id: z.string().nullable(),
  causation_id: z.string().nullable(),
});
type AuditRow = z.infer<typeof AuditRow>;
type AuditFilter = z.output<typeof AuditEventsFilter>;
type AuditSort = Sort<keyof typeof auditSorting.columns>;

// The log is the audit_log read table (the audit-log projection, migration 036), whatever the
// event store: one row per event, its data already redacted, its stream name as shown.

/** Staff and renters whose label ("Jane Smith", "Renter Jane Renter") or email contains the term: their ids. */
function actorsMatching(term: string): FragmentSqlToken {
  const pattern = containsPattern(term);
  return sql.fragment`SELECT id FROM staff WHERE lower(concat_ws(' ', first_name, last_name, email)) LIKE ${pattern}
    UNION ALL SELECT id FROM customers WHERE lower(concat_ws(' ', 'renter', first_name, last_name, email)) LIKE ${pattern}`;
}

/** The system's events when the term is part of the word "system"; the matching people's by their ids (few: one index range each). */
function actorCondition(term: string): FragmentSqlToken {
  const people = sql.fragment`a.actor_id IN (${actorsMatching(term)})`;
  return 'system'.includes(term.toLowerCase()) ? sql.fragment`(a.actor_type = 'system' OR ${people})` : people;
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const StreamIdRow = z.object({ kind: z.enum(['lease', 'reservation', 'invoice']), id: z.string() });

/**
 * The streams that hold the events of the entity the filter picks: a customer's own and those of
 * their leases, reservations and invoices (as the read tables list them), a unit's, an invoice's
 * with its autopay charges'. Null when none is picked; with several, the streams they share.
 */
async function entityStreams(pool: DatabasePool, filter: AuditFilter): Promise<string[] | null> {
  const picked: string[][] = [];
  if (filter.customerId) {
    const id = filter.customerId;
    const owned = await pool.any(sql.type(StreamIdRow)`
      SELECT 'lease' AS kind, id::text FROM leases WHERE customer_id = ${id}
      UNION ALL SELECT 'reservation', id::text FROM reservations WHERE customer_id = ${id}
      UNION ALL SELECT 'invoice', id::text FROM invoices WHERE customer_id = ${id}`);
    picked.push([
      streams.customer(id),
      streams.account(id),
      streams.delinquency(id),
      streams.paymentProfile(id),
      ...owned.flatMap(({ kind, id }) => {
        if (kind === 'lease') return [streams.lease(id), streams.gateCode(id)];
        if (kind === 'invoice') return [streams.invoice(id), streams.autopayCharges(id)];
        return [streams.reservation(id)];
      }),
    ]);
  }
  if (filter.unitId) picked.push([streams.unit(filter.unitId)]);
  if (filter.invoiceId) picked.push([streams.invoice(filter.invoiceId), streams.autopayCharges(filter.invoiceId)]);
  if (picked.length === 0) return null;
  return picked.reduce((all, names) => all.filter((name) => names.includes(name)));
}

/**
 * Days are compared as the ISO text occurredAt is stored in (UTC, so it sorts as time does; the
 * column's collation is C): from the start of `from` up to, not including, the day after `to`.
 */
function auditWhere(filter: AuditFilter, inStreams: readonly string[] | null): FragmentSqlToken {
  const conditions: FragmentSqlToken[] = [];
  if (filter.type) conditions.push(sql.fragment`a.type = ${filter.type}`);
  if (filter.stream) conditions.push(sql.fragment`a.stream_name = ${filter.stream}`);
  if (inStreams) conditions.push(sql.fragment`a.stream_name = ANY(${sql.array(inStreams, 'text')})`);
  if (filter.correlationId) conditions.push(sql.fragment`a.correlation_id = ${filter.correlationId}`);
  if (filter.actor) conditions.push(actorCondition(filter.actor));
  if (filter.facilityId) conditions.push(sql.fragment`a.facility_id = ${filter.facilityId}`);
  if (filter.from) conditions.push(sql.fragment`a.occurred_at >= ${filter.from}`);
  if (filter.to) conditions.push(sql.fragment`a.occurred_at < ${nextDay(filter.to)}`);
  return allOf(conditions);
}

// Recorded is the log's own order; events that occurred at one instant keep the log's order. Each
// filter's index ends in (occurred_at, position), so a page from a cursor is an index range.
/** The log's entries per day they occurred on (the audit-log projection's count, migration 043). */
const auditLogDays: PageSpans = { table: sql.fragment`audit_log_days`, start: sql.fragment`day`, entries: sql.fragment`entries` };

const sortColumns: SortColumns<keyof typeof auditSorting.columns> = {
  occurredAt: sql.fragment`a.occurred_at`,
  recordedAt: [],
};

function auditList(filter: AuditFilter, sort: AuditSort, inStreams: readonly string[] | null): ListSql {
  const where = auditWhere(filter, inStreams);
  return {
    // Ids as the wire sends them (text): no cast per row, which a deep page would pay for every row it skips.
    select: sql.fragment`a.event_id, a.type, a.stream_name, a.data, a.actor_type, a.actor_id, a.occurred_at, a.recorded_at,
      a.position::text AS position, a.stream_revision::text AS stream_revision, a.correlation_id, a.causation_id`,
    from: sql.fragment`audit_log a`,
    where,
    orderBy: orderBy(sortColumns, sort, sql.fragment`a.position`),
    // The whole log by when events occurred: a page by number is read from the day it starts in.
    ...(where === NO_CONDITION && sort.sort === 'occurredAt' && { spans: auditLogDays }),
  };
}

const actorOf = (row: AuditRow): Actor =>
  row.actor_type === 'system' || row.actor_id === null ? { type: 'system' } : { type: row.actor_type, id: row.actor_id };

async function toAuditEvents(pool: DatabasePool, rows: readonly AuditRow[]): Promise<AuditEvent[]> {
  const [label, names] = await Promise.all([
    actorLabels(pool, rows.map(actorOf)),
    entityNames(pool, [
      ...streamNameRefs(rows.map((r) => r.stream_name)),
      // The billing events name their invoice, renter or facility in their sentence.
      ...rows.flatMap((r) => (billingEventTypes.has(r.type) ? [...idsIn([r.data]), ...billingEventIds(r.type, r.data)] : [])),
    ]),
  ]);
  return rows.map((r) => ({
    id: r.event_id,
    type: r.type,
    description: describeBillingEvent(r.type, r.data, names) ?? describeMessageEvent(r.type, r.data) ?? describeEventType(r.type),
    streamName: r.stream_name,
    entity: streamEntityText(r.stream_name, names),
    streamRevision: r.stream_revision === null ? null : Number(r.stream_revision),
    position: r.position,
    correlationId: r.correlation_id,
    causationId: r.causation_id,
    data: r.data,
    occurredAt: r.occurred_at,
    recordedAt: r.recorded_at,
    actor: label(actorOf(r)),
  }));
}

/** The event log in the order asked (by default newest first, by when the events occurred): one page of it, its total and the cursors either side. */
export async function listAuditEvents(
  pool: DatabasePool,
  filter: AuditFilter & Partial<AuditSort>,
  paging: Paging,
): Promise<{ events: AuditEvent[]; info: ListPageInfo }> {
  const list = auditList(filter, sortOf(auditSorting, filter), await entityStreams(pool, filter));
  const { rows, info } = await listPage(pool, AuditRow, list, paging);
  return { events: await toAuditEvents(pool, rows), info };
}

const EXPORT_BATCH = 1000;

/** All the events the filter matches, in the order of the log screen, a batch at a time (each from the last one's cursor). */
export async function* auditEventsMatching(pool: DatabasePool, filter: AuditFilter): AsyncGenerator<AuditEvent[]> {
  const list = auditList(filter, auditSorting.byDefault, await entityStreams(pool, filter));
  let cursor: string | undefined;
  for (;;) {
    const { rows, info } = await listPage(pool, AuditRow, list, { page: 1, pageSize: EXPORT_BATCH, cursor });
    if (rows.length > 0) yield await toAuditEvents(pool, rows);
    if (!info.nextCursor) return;
    cursor = info.nextCursor;
  }
}
