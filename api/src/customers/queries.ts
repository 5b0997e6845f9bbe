import type { Customer, ListCustomersQuery } from '@storage/contracts/customers';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';

const CustomerRow = z.object({
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
const CustomerListRow = CustomerRow.extend({ total: z.number() });

const columns = sql.fragment`
  id::text, first_name, last_name, email, phone, address, emergency_contact, emergency_phone, status,
  facility_id::text, created_at, updated_at`;

function toCustomer(row: z.infer<typeof CustomerRow>): Customer {
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

/** `%term%` for LIKE, with the term's own wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listCustomers(pool: DatabasePool, query: z.output<z.ZodType<ListCustomersQuery>> & { page: number; pageSize: number }) {
  const conditions = [sql.fragment`NOT archived`];
  if (query.facilityId) conditions.push(sql.fragment`facility_id = ${query.facilityId}`);
  if (query.status) conditions.push(sql.fragment`status = ${query.status}`);
  if (query.search) conditions.push(sql.fragment`search_text LIKE ${containsPattern(query.search)}`);
  const rows = await pool.any(sql.type(CustomerListRow)`
    SELECT ${columns}, count(*) OVER ()::int8 AS total
    FROM customers
    WHERE ${sql.join(conditions, sql.fragment` AND `)}
    ORDER BY created_at DESC, id
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    total = await pool.oneFirst(sql.type(z.object({ n: z.number() }))`
      SELECT count(*)::int8 AS n FROM customers WHERE ${sql.join(conditions, sql.fragment` AND `)}`);
  }
  return { customers: rows.map(toCustomer), total };
}

export async function getCustomer(pool: DatabasePool, id: string): Promise<Customer | null> {
  const row = await pool.maybeOne(sql.type(CustomerRow)`SELECT ${columns} FROM customers WHERE id = ${id} AND NOT archived`);
  return row ? toCustomer(row) : null;
}
