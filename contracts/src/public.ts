import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Email, Id, IsoDate, OptionalText, RequiredText } from './fields.ts';

// What anonymous visitors may ask for: the available units, a place on the waiting list.

export const AvailableUnitsQuery = z.strictObject({
  facilityId: Id.optional(),
  size: UnitSize.optional(),
});
export type AvailableUnitsQuery = z.input<typeof AvailableUnitsQuery>;

export const AvailableUnit = z.object({
  id: Id,
  unitNumber: z.string(),
  building: z.string(),
  facility: z.object({ id: Id, name: z.string() }).nullable(),
  monthlyRate: z.string(),
  size: UnitSize,
  description: z.string().nullable(),
});
export type AvailableUnit = z.infer<typeof AvailableUnit>;

export const JoinWaitlistRequest = z.strictObject({
  firstName: RequiredText(100),
  lastName: RequiredText(100),
  email: Email,
  phone: RequiredText(40),
  size: UnitSize.nullish().transform((v) => v ?? null),
  facilityId: Id.nullish().transform((v) => v ?? null),
});
export type JoinWaitlistRequest = z.input<typeof JoinWaitlistRequest>;
export type JoinWaitlistCommand = z.output<typeof JoinWaitlistRequest>;

export const WaitlistEntry = z.object({
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  size: UnitSize.nullable(),
  facilityId: Id.nullable(),
  facilityName: z.string().nullable(),
  joinedAt: z.string(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntry>;

export const ReservationCustomerData = z.strictObject({
  firstName: RequiredText(100),
  lastName: RequiredText(100),
  email: Email,
  phone: RequiredText(40),
  address: OptionalText(500),
  emergencyContact: OptionalText(200),
  emergencyPhone: OptionalText(40),
  moveInDate: IsoDate,
  specialRequests: OptionalText(1000),
});

export const SubmitReservationRequest = z.strictObject({
  unitId: Id,
  customerData: ReservationCustomerData,
});
export type SubmitReservationRequest = z.input<typeof SubmitReservationRequest>;
export type SubmitReservationCommand = z.output<typeof SubmitReservationRequest>;

/** The answer to an anonymous visitor: never a customer's id (the email typed may be someone else's). */
export const SubmittedReservation = z.object({
  reservationId: Id,
  unitId: Id,
  moveInDate: z.string(),
});
export type SubmittedReservation = z.infer<typeof SubmittedReservation>;

/** The answer to a reservation that lost its unit to another renter. */
export const UNIT_TAKEN_MESSAGE = 'Sorry, this unit was just reserved by someone else. Please choose another unit.';
