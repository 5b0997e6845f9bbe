import { AccessHours, accessHoursWords } from '@storage/contracts/access-hours';
import { UnitSize } from '@storage/contracts/enums';
import type { AvailableUnit, AvailableUnitsQuery } from '@storage/contracts/public';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf } from '../http/list-page.ts';
import { FeatureColumns, featuresOf } from '../units/queries.ts';

const AvailableUnitRow = z.object({
  id: z.string(),
  unit_number: z.string(),
  building: z.string(),
  facility_id: z.string().nullable(),
  facility_name: z.string().nullable(),
  access_hours: AccessHours.nullable(),
  monthly_rate: z.string(),
  size: UnitSize,
  description: z.string().nullable(),
  ...FeatureColumns,
});

/** Every unit a renter can reserve now, by facility, building and unit number. */
export async function listAvailableUnits(pool: DatabasePool, query: z.output<typeof AvailableUnitsQuery>): Promise<AvailableUnit[]> {
  const conditions = [sql.fragment`u.status = 'available'`];
  if (query.facilityId) conditions.push(sql.fragment`u.facility_id = ${query.facilityId}`);
  if (query.size) conditions.push(sql.fragment`u.size = ${query.size}`);
  const rows = await pool.any(sql.type(AvailableUnitRow)`
    SELECT u.id::text, u.unit_number, u.building, u.facility_id::text, f.name AS facility_name, f.access_hours, u.monthly_rate::text, u.size,
           u.description, u.climate_controlled, u.drive_up, u.floor, u.lock_type
    FROM units u LEFT JOIN facilities f ON f.id = u.facility_id
    WHERE ${allOf(conditions)}
    ORDER BY f.name NULLS LAST, u.building, u.unit_number, u.id`);
  return rows.map((row) => ({
    id: row.id,
    unitNumber: row.unit_number,
    building: row.building,
    facility: row.facility_id && row.facility_name ? { id: row.facility_id, name: row.facility_name, accessHours: accessHoursWords(row.access_hours) } : null,
    monthlyRate: row.monthly_rate,
    size: row.size,
    description: row.description,
    features: featuresOf(row),
  }));
}
