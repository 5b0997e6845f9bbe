import { AccessHours } from '@storage/contracts/access-hours';
import type { Facility, ListFacilitiesQuery } from '@storage/contracts/facilities';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, containsPattern, fixedOrder, type ListSql, listPage } from '../http/list-page.ts';

const FacilityRow = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  phone: z.string().nullable(),
  manager_name: z.string().nullable(),
  total_units: z.number(),
  occupied_units: z.number(),
  time_zone: z.string(),
  access_hours: AccessHours.nullable(),
});

const columns = sql.fragment`id::text, name, address, phone, manager_name, total_units, occupied_units, time_zone, access_hours`;

function toFacility(row: z.infer<typeof FacilityRow>): Facility {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    managerName: row.manager_name,
    totalUnits: row.total_units,
    occupiedUnits: row.occupied_units,
    timeZone: row.time_zone,
    accessHours: row.access_hours,
  };
}

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function facilitiesSql(query: z.output<typeof ListFacilitiesQuery>): ListSql {
  const conditions = [];
  // The same expression as facilities_search_idx, so the trigram index answers it.
  if (query.search) conditions.push(sql.fragment`lower(name || ' ' || address) LIKE ${containsPattern(query.search)}`);
  return {
    select: columns,
    from: sql.fragment`facilities`,
    where: allOf(conditions),
    orderBy: fixedOrder('name', [{ expression: sql.fragment`name` }, { expression: sql.fragment`id` }]),
  };
}

export async function listFacilities(pool: DatabasePool, query: z.output<typeof ListFacilitiesQuery>) {
  const { rows, info } = await listPage(pool, FacilityRow, facilitiesSql(query), query);
  return { facilities: rows.map(toFacility), paging: info };
}

export async function getFacility(pool: DatabasePool, id: string): Promise<Facility | null> {
  const row = await pool.maybeOne(sql.type(FacilityRow)`SELECT ${columns} FROM facilities WHERE id = ${id}`);
  return row ? toFacility(row) : null;
}
