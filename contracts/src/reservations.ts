import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Id, IsoDate } from './fields.ts';
import { NonNegativeMoney } from './money.ts';

export const ReservationStatus = z.enum(['submitted', 'converted', 'cancelled', 'expired']);
export type ReservationStatus = z.infer<typeof ReservationStatus>;

export const Reservation = z.object({
  id: Id,
  status: ReservationStatus,
  unitId: Id,
  unitNumber: z.string(),
  size: UnitSize,
  monthlyRate: z.string(),
  facilityId: Id.nullable(),
  customerId: Id,
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  moveInDate: IsoDate,
  specialRequests: z.string().nullable(),
  submittedAt: z.string(),
  leaseId: Id.nullable(),
});
export type Reservation = z.infer<typeof Reservation>;

export const ListReservationsQuery = z.strictObject({ facilityId: Id.optional() });
export type ListReservationsQuery = z.input<typeof ListReservationsQuery>;

/** Move-in of a reservation: the lease starts on the move-in date at the unit's rate unless staff say otherwise. */
export const ConvertReservationRequest = z.strictObject({
  startDate: IsoDate.optional(),
  depositAmount: NonNegativeMoney.nullish().transform((v) => v ?? null),
});
export type ConvertReservationRequest = z.input<typeof ConvertReservationRequest>;

export const CancelReservationRequest = z.strictObject({ reason: z.string().trim().max(500, 'must be at most 500 characters').optional() });
export type CancelReservationRequest = z.input<typeof CancelReservationRequest>;
