import { z } from 'zod';
import { UnitSize, UnitStatus } from './enums.ts';
import { Id, IsoDateTime, OptionalText, RequiredText, SearchText } from './fields.ts';
import { MonthlyRate } from './money.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';
import { NO_UNIT_FEATURES, UnitFeatures } from './unit-features.ts';

export const CreateUnitRequest = z.strictObject({
  unitNumber: RequiredText(40),
  building: RequiredText(100),
  size: UnitSize.default('10x10'),
  monthlyRate: MonthlyRate,
  status: UnitStatus.default('available'),
  description: OptionalText(500),
  facilityId: Id.nullish().transform((v) => v ?? null),
  features: UnitFeatures.default(NO_UNIT_FEATURES),
});
export type CreateUnitRequest = z.input<typeof CreateUnitRequest>;
export type CreateUnitCommand = z.output<typeof CreateUnitRequest>;

/** Everything the unit offers, replacing what was set before. */
export const SetUnitFeaturesRequest = UnitFeatures;
export type SetUnitFeaturesRequest = z.input<typeof SetUnitFeaturesRequest>;

export const ChangeUnitStatusRequest = z.strictObject({
  status: UnitStatus,
  reason: OptionalText(200),
});
export type ChangeUnitStatusRequest = z.input<typeof ChangeUnitStatusRequest>;

/** What narrows the units list; the building headings are counted with the same filter. */
export const UnitsFilter = z.strictObject({
  search: SearchText,
  facilityId: Id.optional(),
  status: UnitStatus.optional(),
});
export type UnitsFilter = z.input<typeof UnitsFilter>;

/**
 * Units are listed building by building (the screen's headings, A→Z); the sort orders them inside
 * their building. Size sorts small to large, status in the order of the status list.
 */
export const unitSorting = listSorting({ unitNumber: 'asc', size: 'asc', monthlyRate: 'desc', status: 'asc' }, 'unitNumber');

export const ListUnitsQuery = UnitsFilter.extend({ ...unitSorting.fields, ...pagingFields });
export type ListUnitsQuery = z.input<typeof ListUnitsQuery>;

export const Unit = z.object({
  id: Id,
  unitNumber: z.string(),
  building: z.string(),
  facilityId: z.string().nullable(),
  size: UnitSize,
  monthlyRate: z.string(),
  status: UnitStatus,
  description: z.string().nullable(),
  features: UnitFeatures,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Unit = z.infer<typeof Unit>;

/** A building heading of the units screen (a building of one facility): how many units match the filter in it. */
export const UnitBuilding = z.object({ facilityId: z.string().nullable(), building: z.string(), unitCount: z.number().int() });
export type UnitBuilding = z.infer<typeof UnitBuilding>;
