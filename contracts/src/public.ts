import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Email, Id, IsoDate, OptionalText, RequiredText } from './fields.ts';
import { UnitFeatures } from './unit-features.ts';

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
  /** accessHours: when the facility lets renters in, in words (accessHoursWords). */
  facility: z.object({ id: Id, name: z.string(), accessHours: z.string() }).nullable(),
  monthlyRate: z.string(),
  size: UnitSize,
  description: z.string().nullable(),
  features: UnitFeatures,
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

/**
 * The answer to an online reservation request: nothing is held and no customer is made until the
 * visitor confirms from the link mailed to the email they typed.
 */
export const ReservationRequested = z.object({
  unitId: Id,
  moveInDate: z.string(),
  /** Until when the mailed link confirms the reservation. */
  confirmBy: z.string(),
  message: z.string(),
});
export type ReservationRequested = z.infer<typeof ReservationRequested>;

export const RESERVATION_CONFIRM_MESSAGE = 'Check your email: confirm your reservation from the link we sent you to hold the unit.';

/** The link's token, from the mailed confirmation link. */
export const ConfirmReservationRequest = z.strictObject({ token: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters') });
export type ConfirmReservationRequest = z.input<typeof ConfirmReservationRequest>;

/** The answer to a reservation that lost its unit to another renter. */
export const UNIT_TAKEN_MESSAGE = 'Sorry, this unit was just reserved by someone else. Please choose another unit.';
