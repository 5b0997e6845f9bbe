import { type AccessHours, accessHoursWords } from '@storage/contracts/access-hours';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

// History and the audit log in a manager's words: an id as the unit number, name or invoice
// number it stands for, a status as its word, money in dollars. One batched read per answer.

/** The entities an id can stand for, by the name of the field (without "Id") or stream that holds it. */
const namedKinds = ['unit', 'customer', 'lease', 'invoice', 'facility', 'lock', 'staff', 'reservation', 'waitlist', 'notification'] as const;
export type NamedKind = (typeof namedKinds)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fields whose values are one of a fixed list of lower-case words (statuses, roles, methods). */
const wordFields = new Set(['status', 'lifecycle', 'role', 'method']);

const fieldLabels: Record<string, string> = { lifecycle: 'Record', serial: 'Lock ID' };

function kindOf(field: string): NamedKind | null {
  const kind = field.endsWith('Id') ? field.slice(0, -2) : null;
  return kind && (namedKinds as readonly string[]).includes(kind) ? (kind as NamedKind) : null;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** 'monthlyRate' → 'Monthly rate', 'unitId' → 'Unit', 'lifecycle' → 'Record'. */
export function fieldLabel(field: string): string {
  if (fieldLabels[field]) return fieldLabels[field];
  const named = kindOf(field);
  const words = (named ?? field).replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return capitalize(words);
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** Looks up what an id stands for; undefined when it names nothing known. */
export type Names = (kind: NamedKind, id: string) => string | undefined;

/** A value in words, or null when there is none (shown as a dash). */
export function valueText(field: string, value: unknown, names: Names): string | null {
  // A facility's hours: null says 24-hour access, not "none".
  if (field === 'accessHours') return accessHoursWords(value as AccessHours | null);
  if (value === null || value === undefined || value === '') return null;
  const kind = kindOf(field);
  if (kind && typeof value === 'string') return names(kind, value) ?? value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (wordFields.has(field) && /^[a-z_]+$/.test(value)) return capitalize(value.replaceAll('_', ' '));
    if (/(amount|Amount|Rate|rate)$/.test(field) && /^-?\d+(\.\d+)?$/.test(value)) return dollars.format(Number(value));
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return day.format(new Date(`${value}T00:00:00Z`));
    return value;
  }
  if (Array.isArray(value)) return value.length === 0 ? null : value.map((item) => valueText(field.replace(/s$/, ''), item, names) ?? '—').join(', ');
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => [fieldLabel(key), valueText(key, inner, names)] as const)
      .filter(([, text]) => text !== null)
      .map(([label, text]) => `${label}: ${text}`);
    return parts.length === 0 ? null : parts.join('; ');
  }
  return String(value);
}

/** The ids in these values (by their fields' names, nested objects and lists included) that could name something. */
export function idsIn(values: ReadonlyArray<Record<string, unknown>>): Array<{ kind: NamedKind; id: string }> {
  const found: Array<{ kind: NamedKind; id: string }> = [];
  const visit = (field: string, value: unknown) => {
    const kind = kindOf(field);
    if (kind && typeof value === 'string' && UUID.test(value)) found.push({ kind, id: value });
    else if (Array.isArray(value)) for (const item of value) visit(field.replace(/s$/, ''), item);
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) visit(key, inner);
  };
  for (const record of values) for (const [field, value] of Object.entries(record)) visit(field, value);
  return found;
}

const NameRow = z.object({ kind: z.enum(namedKinds), id: z.string(), name: z.string() });

/**
 * What each id stands for, read in one statement from the read tables: a unit by its number, a
 * customer or staff member by name, a lease as its unit and renter, an invoice by its number, a
 * facility by name, a lock by its ID, a reservation as its unit and renter, a waitlist entry by
 * the name given, a notification by its title.
 */
export async function entityNames(pool: DatabasePool, refs: ReadonlyArray<{ kind: NamedKind; id: string }>): Promise<Names> {
  const ids = (kind: NamedKind) => sql.array([...new Set(refs.filter((r) => r.kind === kind && UUID.test(r.id)).map((r) => r.id))], 'uuid');
  const rows =
    refs.length === 0
      ? []
      : await pool.any(sql.type(NameRow)`
    SELECT 'unit' AS kind, id::text, unit_number AS name FROM units WHERE id = ANY(${ids('unit')})
    UNION ALL SELECT 'customer', id::text, concat_ws(' ', first_name, last_name) FROM customers WHERE id = ANY(${ids('customer')})
    UNION ALL SELECT 'lease', l.id::text, concat('Unit ', u.unit_number, ', ', c.first_name, ' ', c.last_name)
      FROM leases l JOIN units u ON u.id = l.unit_id JOIN customers c ON c.id = l.customer_id WHERE l.id = ANY(${ids('lease')})
    UNION ALL SELECT 'invoice', id::text, invoice_number FROM invoices WHERE id = ANY(${ids('invoice')})
    UNION ALL SELECT 'facility', id::text, name FROM facilities WHERE id = ANY(${ids('facility')})
    UNION ALL SELECT 'lock', id::text, lock_id FROM locks WHERE id = ANY(${ids('lock')})
    UNION ALL SELECT 'staff', id::text, trim(concat_ws(' ', first_name, last_name)) FROM staff WHERE id = ANY(${ids('staff')})
    UNION ALL SELECT 'reservation', r.id::text, concat('Unit ', u.unit_number, ', ', c.first_name, ' ', c.last_name)
      FROM reservations r JOIN units u ON u.id = r.unit_id JOIN customers c ON c.id = r.customer_id WHERE r.id = ANY(${ids('reservation')})
    UNION ALL SELECT 'waitlist', id::text, concat_ws(' ', first_name, last_name) FROM waitlist_entries WHERE id = ANY(${ids('waitlist')})
    UNION ALL SELECT 'notification', id::text, title FROM notifications WHERE id = ANY(${ids('notification')})`);
  const byKey = new Map(rows.filter((r) => r.name.trim() !== '').map((r) => [`${r.kind}:${r.id}`, r.name]));
  return (kind, id) => byKey.get(`${kind}:${id.toLowerCase()}`);
}
