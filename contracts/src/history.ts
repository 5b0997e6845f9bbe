import { z } from 'zod';
import { type EventType, eventTypes } from './events.ts';
import { Id, IsoDate, IsoDateTime, SearchText } from './fields.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

/** The entities whose event history staff can read, each one stream per entity. */
export const HistoryStreamType = z.enum(['customer', 'unit', 'lease', 'invoice', 'lock', 'facility', 'staff']);
export type HistoryStreamType = z.infer<typeof HistoryStreamType>;

export const HistoryParams = z.strictObject({ streamType: HistoryStreamType, id: Id });

export const HistoryQuery = z.strictObject({
  /** Also rebuild the entity's state from its events up to this instant. */
  asOf: IsoDateTime.optional(),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

export const FieldChange = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** The field in words, e.g. "Unit" for unitId. */
  label: z.string(),
  /** The values in words: an id as the unit number, name or invoice number it stands for, a status as its word; null for none. */
  beforeText: z.string().nullable(),
  afterText: z.string().nullable(),
});
export type FieldChange = z.infer<typeof FieldChange>;

export const HistoryEvent = z.object({
  id: Id,
  type: z.string(),
  /** The type in words, e.g. "Customer updated". */
  description: z.string(),
  /** When it happened in the domain. */
  occurredAt: IsoDateTime,
  /** When the event store recorded it. */
  recordedAt: IsoDateTime,
  /** A staff member's name, "Renter <name>", or "System". */
  actor: z.string(),
  changes: z.array(FieldChange),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

export const EntityHistory = z.object({
  streamType: HistoryStreamType,
  id: Id,
  events: z.array(HistoryEvent),
  asOf: IsoDateTime.nullable(),
  /** The entity as its events up to `asOf` make it; null without `asOf` or when it did not exist yet. */
  stateAsOf: z.record(z.string(), z.unknown()).nullable(),
  /** The same state in words, field by field (empty fields left out). */
  stateAsOfText: z.array(z.object({ field: z.string(), label: z.string(), text: z.string() })).nullable(),
});
export type EntityHistory = z.infer<typeof EntityHistory>;

/** Event types whose name alone says little to an auditor: what they mean, in words. */
const eventTypeWords: Partial<Record<string, string>> = {
  unique_key_claimed: 'Taken: no other record may use it',
  unique_key_released: 'Released: free for another record',
};

export function describeEventType(type: string): string {
  const described = eventTypeWords[type];
  if (described) return described;
  const words = type.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const AuditEventsFilter = z.strictObject({
  type: z.enum(eventTypes as [EventType, ...EventType[]]).optional(),
  /** Part of the actor's name or email, or "system". */
  actor: SearchText,
  facilityId: Id.optional(),
  /** A stream name, e.g. customer-<id>. */
  stream: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  /**
   * A customer's events: their own streams (record, account, delinquency, saved cards and
   * autopay) and those of their leases (with gate codes), reservations and invoices (with autopay charges).
   */
  customerId: Id.optional(),
  /** A unit's events: its own stream. */
  unitId: Id.optional(),
  /** An invoice's events: its stream and its autopay charges'. */
  invoiceId: Id.optional(),
  /** The events of one request (or process run): those appended under its correlation id. */
  correlationId: Id.optional(),
  /** Inclusive days of when the events occurred. */
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export type AuditEventsFilter = z.input<typeof AuditEventsFilter>;

/** By when the events occurred, or by when they were recorded (the log's own order); newest first unless asked otherwise. */
export const auditSorting = listSorting({ occurredAt: 'desc', recordedAt: 'desc' }, 'occurredAt');

export const ListAuditEventsQuery = AuditEventsFilter.extend({ ...auditSorting.fields, ...pagingFields });
export type ListAuditEventsQuery = z.input<typeof ListAuditEventsQuery>;

export const AuditEvent = HistoryEvent.omit({ changes: true }).extend({
  streamName: z.string(),
  /** What the stream stands for, in words ("Unit A-101", "Gate code · Unit A-101, Jane Smith"); the stream's name for one no release wrote. */
  entity: z.string(),
  /** The event's 0-based place in its stream; null for an event logged before the log kept it (EventStoreDB, until the log is rebuilt). */
  streamRevision: z.number().int().nullable(),
  /** Its place in the whole log (the log's own order), as a decimal number. */
  position: z.string(),
  /** The request (its X-Request-Id) or process run that appended it; null when not recorded (as streamRevision). */
  correlationId: z.string().nullable(),
  /** The event that caused it (a process's step names the event it decided on); null for a request's own events. */
  causationId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof AuditEvent>;
