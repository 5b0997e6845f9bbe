import { z } from 'zod';
import { Id, OptionalText, Page, PageSize, RequiredText, SearchText } from './fields.ts';

export const Facility = z.object({
  id: Id,
  name: z.string(),
  address: z.string(),
  phone: z.string().nullable(),
  managerName: z.string().nullable(),
  totalUnits: z.number().int(),
  occupiedUnits: z.number().int(),
});
export type Facility = z.infer<typeof Facility>;

/** totalUnits and occupiedUnits are counted from the units, never typed in. */
export const CreateFacilityRequest = z.strictObject({
  name: RequiredText(200),
  address: RequiredText(500),
  phone: OptionalText(40),
  managerName: OptionalText(200),
});
export type CreateFacilityRequest = z.input<typeof CreateFacilityRequest>;

export const UpdateFacilityRequest = CreateFacilityRequest.partial().refine((v) => Object.keys(v).length > 0, {
  message: 'must change at least one field',
});
export type UpdateFacilityRequest = z.input<typeof UpdateFacilityRequest>;

export const ListFacilitiesQuery = z.strictObject({
  search: SearchText,
  page: Page,
  pageSize: PageSize,
});
export type ListFacilitiesQuery = z.input<typeof ListFacilitiesQuery>;
