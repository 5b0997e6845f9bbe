import { MessageTemplateKey } from '@storage/contracts/enums';
import { type ListMessagesQuery, MessageStatus, messageSorting, type OutboxMessage, type OutboxMessageDetail } from '@storage/contracts/messages';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, type FragmentSqlToken, sql } from 'slonik';
import { z } from 'zod';
import { allOf, containsPattern, type ListSql, listPage, orderBy, type SortColumns } from '../http/list-page.ts';

// The outbox as staff read it: "Sent messages".

const MessageRow = z.object({
  id: z.string(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  template_key: MessageTemplateKey,
  to_address: z.string().nullable(),
  subject: z.string(),
  status: MessageStatus,
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

const DetailRow = MessageRow.extend({ body: z.string(), event_id: z.string() });

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

function toMessage(row: z.infer<typeof MessageRow>): OutboxMessage {
  return {
    id: row.id,
    customerId: row.customer_id,
    customerName: row.customer_name,
    templateKey: row.template_key,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    lastError: row.last_error,
    createdAt: iso(row.created_at)!,
    sentAt: iso(row.sent_at),
  };
}

const columns = sql.fragment`m.id::text, m.customer_id::text, nullif(trim(concat(c.first_name, ' ', c.last_name)), '') AS customer_name,
  m.template_key, m.to_address, m.subject, m.status, m.attempts, m.next_attempt_at, m.last_error, m.created_at, m.sent_at`;
const from = sql.fragment`outbox_messages m LEFT JOIN customers c ON c.id = m.customer_id`;

const sortColumns: SortColumns<keyof typeof messageSorting.columns> = { createdAt: sql.fragment`m.created_at` };

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function messagesSql(query: z.output<typeof ListMessagesQuery>): ListSql {
  const conditions: FragmentSqlToken[] = [];
  if (query.facilityId) conditions.push(sql.fragment`m.facility_id = ${query.facilityId}`);
  if (query.customerId) conditions.push(sql.fragment`m.customer_id = ${query.customerId}`);
  if (query.status) conditions.push(sql.fragment`m.status = ${query.status}`);
  if (query.templateKey) conditions.push(sql.fragment`m.template_key = ${query.templateKey}`);
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      sql.fragment`(lower(coalesce(m.to_address, '')) LIKE ${pattern} OR lower(m.subject) LIKE ${pattern} OR lower(concat(c.first_name, ' ', c.last_name)) LIKE ${pattern})`,
    );
  }
  return { select: columns, from, where: allOf(conditions), orderBy: orderBy(sortColumns, sortOf(messageSorting, query), sql.fragment`m.id`) };
}

export async function listMessages(pool: DatabasePool, query: z.output<typeof ListMessagesQuery>) {
  const { rows, info } = await listPage(pool, MessageRow, messagesSql(query), query);
  return { messages: rows.map(toMessage), paging: info };
}

export async function getMessage(pool: DatabasePool, id: string): Promise<OutboxMessageDetail | null> {
  const row = await pool.maybeOne(sql.type(DetailRow)`SELECT ${columns}, m.body, m.event_id::text FROM ${from} WHERE m.id = ${id}`);
  return row ? { ...toMessage(row), body: row.body, eventId: row.event_id } : null;
}

/** The newest pre-lien notice written to the renter (its letter is printed from it). */
export async function latestPreLienNotice(pool: DatabasePool, customerId: string) {
  return pool.maybeOne(sql.type(DetailRow)`
    SELECT ${columns}, m.body, m.event_id::text FROM ${from}
    WHERE m.customer_id = ${customerId} AND m.template_key = 'pre_lien_notice' ORDER BY m.created_at DESC, m.id DESC LIMIT 1`);
}

/**
 * A failed message is tried once more, now (the worker finds it at its next look, within seconds);
 * false when it is not failed (sent, pending or suppressed messages are not sent again by hand).
 */
export async function retryFailedMessage(pool: DatabasePool, id: string): Promise<boolean> {
  const result = await pool.query(sql.unsafe`
    UPDATE outbox_messages SET status = 'pending', next_attempt_at = now() WHERE id = ${id} AND status = 'failed'`);
  return result.rowCount > 0;
}
