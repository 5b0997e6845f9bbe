import { z } from 'zod';
import { Id } from './fields.ts';

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
