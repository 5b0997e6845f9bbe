import { z } from 'zod';
import { AccessHours } from './access-hours.ts';
import { TimeZone } from './billing.ts';
import { Id, OptionalText, RequiredText, SearchText } from './fields.ts';
import { pagingFields } from './paging.ts';

export const Facility = z.object({
  id: Id,
  name: z.string(),
  address: z.string(),
  phone: z.string().nullable(),
  managerName: z.string().nullable(),
  totalUnits: z.number().int(),
  occupiedUnits: z.number().int(),
  /** The IANA zone the facility's days run in: its "today", due dates and billing days. */
  timeZone: z.string(),
  /** When renters may reach their units; null: 24-hour access. Shown as accessHoursWords (access-hours.ts). */
  accessHours: AccessHours.nullable(),
});
export type Facility = z.infer<typeof Facility>;

/** totalUnits and occupiedUnits are counted from the units, never typed in. */
export const CreateFacilityRequest = z.strictObject({
  name: RequiredText(200),
  address: RequiredText(500),
  phone: OptionalText(40),
  managerName: OptionalText(200),
  /** Any IANA zone; without one the facility keeps UTC. */
  timeZone: TimeZone.optional(),
  /** The gate's hours, { opensAt, closesAt } on the 24-hour clock; null or left out: 24-hour access. */
  accessHours: AccessHours.nullable().optional(),
});
export type CreateFacilityRequest = z.input<typeof CreateFacilityRequest>;

export const UpdateFacilityRequest = CreateFacilityRequest.partial().refine((v) => Object.keys(v).length > 0, {
  message: 'must change at least one field',
});
export type UpdateFacilityRequest = z.input<typeof UpdateFacilityRequest>;

export const ListFacilitiesQuery = z.strictObject({
  search: SearchText,
  ...pagingFields,
});
export type ListFacilitiesQuery = z.input<typeof ListFacilitiesQuery>;
