import { type Customer, type CustomerNote, customerSorting, type ListCustomersQuery } from '@storage/contracts/customers';
import { CustomerStatus } from '@storage/contracts/enums';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, orderBy, positionIn, type SortColumns, searchMatches, textOrder } from '../http/list-page.ts';

export const CustomerRow = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  emergency_contact: z.string().nullable(),
  emergency_phone: z.string().nullable(),
  status: z.enum(['active', 'inactive', 'overdue', 'terminated']),
  facility_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const columns = sql.fragment`
  id::text, first_name, last_name, email, phone, address, emergency_contact, emergency_phone, status,
  facility_id::text, created_at, updated_at`;

export function toCustomer(row: z.infer<typeof CustomerRow>): Customer {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    emergencyContact: row.emergency_contact,
    emergencyPhone: row.emergency_phone,
    status: row.status,
    facilityId: row.facility_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const sortColumns: SortColumns<keyof typeof customerSorting.columns> = {
  name: [textOrder(sql.fragment`last_name`), textOrder(sql.fragment`first_name`)],
  email: textOrder(sql.fragment`email`),
  status: [positionIn(CustomerStatus.options, sql.fragment`status`), textOrder(sql.fragment`last_name`), textOrder(sql.fragment`first_name`)],
  createdAt: sql.fragment`created_at`,
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function customersSql(query: z.output<typeof ListCustomersQuery>): ListSql {
  const conditions = [query.archived === 'true' ? sql.fragment`archived` : sql.fragment`NOT archived`];
  if (query.facilityId) conditions.push(sql.fragment`facility_id = ${query.facilityId}`);
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  if (query.search) conditions.push(searchMatches(sql.fragment`search_text`, query.search));
  if (query.autopay) {
    const enrolled = sql.fragment`EXISTS (SELECT 1 FROM autopay_enrollments e WHERE e.customer_id = customers.id AND e.enabled)`;
    conditions.push(query.autopay === 'on' ? enrolled : sql.fragment`NOT ${enrolled}`);
  }
  return {
    select: columns,
    from: sql.fragment`customers`,
    where: allOf(conditions),
    orderBy: orderBy(sortColumns, sortOf(customerSorting, query), sql.fragment`id`),
  };
}

export async function listCustomers(pool: DatabasePool, query: z.output<typeof ListCustomersQuery>) {
  const { rows, info } = await listPage(pool, CustomerRow, customersSql(query), query);
  return { customers: rows.map(toCustomer), paging: info };
}

/** The customer page and every customer command's answer read it: a named statement, planned once per connection. */
const customerStatement = sql.prepared('customer_by_id', CustomerRow);

export async function getCustomer(pool: DatabasePool, id: string): Promise<Customer | null> {
  const row = await pool.maybeOne(customerStatement`SELECT ${columns} FROM customers WHERE id = ${id} AND NOT archived`);
  return row ? toCustomer(row) : null;
}

const NoteRow = z.object({ id: z.string(), text: z.string(), author: z.string().nullable(), created_at: z.string() });

/** The customer's notes, newest first, each with its author's name. */
export async function notesOfCustomer(pool: DatabasePool, customerId: string): Promise<CustomerNote[]> {
  const rows = await pool.any(sql.type(NoteRow)`
    SELECT n.id::text, n.text, nullif(trim(concat_ws(' ', s.first_name, s.last_name)), '') AS author, n.created_at::text
    FROM customer_notes n LEFT JOIN staff s ON s.id = n.author_id
    WHERE n.customer_id = ${customerId}
    ORDER BY n.created_at DESC, n.id`);
  return rows.map((r) => ({ id: r.id, text: r.text, author: r.author, createdAt: new Date(r.created_at).toISOString() }));
}
