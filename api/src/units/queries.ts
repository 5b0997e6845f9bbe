import { UnitSize, UnitStatus, unitSizes } from '@storage/contracts/enums';
import { sortOf } from '@storage/contracts/sorting';
import { type UnitFeatures, UnitLockType } from '@storage/contracts/unit-features';
import { type ListUnitsQuery, type Unit, type UnitBuilding, type UnitsFilter, unitSorting } from '@storage/contracts/units';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, orderBy, positionIn, type SortColumns, searchMatches, textOrder } from '../http/list-page.ts';

/** A unit's features as the units table keeps them (migration 056). */
export const FeatureColumns = {
  climate_controlled: z.boolean(),
  drive_up: z.boolean(),
  floor: z.number().nullable(),
  lock_type: UnitLockType.nullable(),
};

export function featuresOf(row: { climate_controlled: boolean; drive_up: boolean; floor: number | null; lock_type: UnitLockType | null }): UnitFeatures {
  return { climateControlled: row.climate_controlled, driveUp: row.drive_up, floor: row.floor, lockType: row.lock_type };
}

const UnitRow = z.object({
  id: z.string(),
  unit_number: z.string(),
  building: z.string(),
  facility_id: z.string().nullable(),
  size: UnitSize,
  monthly_rate: z.string(),
  status: UnitStatus,
  description: z.string().nullable(),
  ...FeatureColumns,
  created_at: z.string(),
  updated_at: z.string(),
});
const BuildingRow = z.object({ facility_id: z.string().nullable(), building: z.string(), unit_count: z.number() });

/**
 * Facility by facility (units of none last), then building by building: the screen's headings, so
 * that with every facility in view building A of one site is not mixed with building A of another.
 */
const headingOrder = [sql.fragment`coalesce(facility_id::text, 'none') COLLATE "C"`, sql.fragment`building`];

const columns = sql.fragment`
  id::text, unit_number, building, facility_id::text, size, monthly_rate, status, description,
  climate_controlled, drive_up, floor, lock_type, created_at, updated_at`;

function toUnit(row: z.infer<typeof UnitRow>): Unit {
  return {
    id: row.id,
    unitNumber: row.unit_number,
    building: row.building,
    facilityId: row.facility_id,
    size: row.size,
    monthlyRate: row.monthly_rate,
    status: row.status,
    description: row.description,
    features: featuresOf(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function matching(filter: z.output<typeof UnitsFilter>) {
  const conditions = [];
  if (filter.facilityId) conditions.push(sql.fragment`facility_id = ${filter.facilityId}`);
  if (filter.status) conditions.push(sql.fragment`status = ${filter.status}`);
  if (filter.search) conditions.push(searchMatches(sql.fragment`search_text`, filter.search));
  return allOf(conditions);
}

const unitNumber = textOrder(sql.fragment`unit_number`);
const sortColumns: SortColumns<keyof typeof unitSorting.columns> = {
  unitNumber,
  size: [positionIn(unitSizes, sql.fragment`size`), unitNumber],
  monthlyRate: [sql.fragment`monthly_rate`, unitNumber],
  status: [positionIn(UnitStatus.options, sql.fragment`status`), unitNumber],
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function unitsSql(query: z.output<typeof ListUnitsQuery>): ListSql {
  return {
    select: columns,
    from: sql.fragment`units`,
    where: matching(query),
    orderBy: orderBy(sortColumns, sortOf(unitSorting, query), sql.fragment`id`, headingOrder),
  };
}

/** Facility by facility and building by building (the screen's headings), each building in the order asked. */
export async function listUnits(pool: DatabasePool, query: z.output<typeof ListUnitsQuery>) {
  const { rows, info } = await listPage(pool, UnitRow, unitsSql(query), query);
  return { units: rows.map(toUnit), paging: info };
}

/** The building headings of the whole filtered list with their unit counts, however much of it is loaded. */
export async function listUnitBuildings(pool: DatabasePool, filter: z.output<typeof UnitsFilter>): Promise<UnitBuilding[]> {
  const rows = await pool.any(sql.type(BuildingRow)`
    SELECT facility_id::text, building, count(*)::int8 AS unit_count FROM units WHERE ${matching(filter)}
    GROUP BY facility_id, building ORDER BY ${sql.join(headingOrder, sql.fragment`, `)}`);
  return rows.map((r) => ({ facilityId: r.facility_id, building: r.building, unitCount: r.unit_count }));
}

export async function getUnit(pool: DatabasePool, id: string): Promise<Unit | null> {
  const row = await pool.maybeOne(sql.type(UnitRow)`SELECT ${columns} FROM units WHERE id = ${id}`);
  return row ? toUnit(row) : null;
}
