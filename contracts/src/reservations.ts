import { z } from 'zod';
import { UnitSize } from './enums.ts';
import { Id, IsoDate } from './fields.ts';
import { DepositAmount } from './money.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

export const ReservationStatus = z.enum(['submitted', 'converting', 'converted', 'cancelled', 'expired']);
export type ReservationStatus = z.infer<typeof ReservationStatus>;

/** Where a renter's online payment for their reservation stands. */
export const OnlineCheckout = z.enum(['paying', 'refunded']);
export type OnlineCheckout = z.infer<typeof OnlineCheckout>;

export const Reservation = z.object({
  id: Id,
  status: ReservationStatus,
  unitId: Id,
  unitNumber: z.string(),
  size: UnitSize,
  monthlyRate: z.string(),
  facilityId: Id.nullable(),
  /** Null while the contact is pending: the renter typed the email of an existing customer, and staff choose who it is when moving them in. */
  customerId: Id.nullable(),
  /** The renter's name, email and phone: the customer's, or as typed while pending. */
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  moveInDate: IsoDate,
  specialRequests: z.string().nullable(),
  submittedAt: z.string(),
  leaseId: Id.nullable(),
  /** For a pending contact: the current customer who holds the email typed (a hint; staff decide). */
  matchedCustomer: z.object({ id: Id, name: z.string() }).nullable(),
  /**
   * The renter's own online payment for the move-in: paying (under way: converting at the desk may
   * leave it to be refunded), refunded (the rental could not be made), or null (none); since onlineCheckoutAt.
   */
  onlineCheckout: OnlineCheckout.nullable(),
  onlineCheckoutAt: z.string().nullable(),
});
export type Reservation = z.infer<typeof Reservation>;

/** The reservations staff still act on: submitted, and those being moved in. */
export const openReservationStatuses: readonly ReservationStatus[] = ['submitted', 'converting'];

/** Customer is the renter's name as shown; unit the unit number; the oldest request first unless asked otherwise. */
export const reservationSorting = listSorting({ submittedAt: 'asc', moveInDate: 'asc', customer: 'asc', unit: 'asc' }, 'submittedAt');

export const ListReservationsQuery = z.strictObject({
  facilityId: Id.optional(),
  /** One status; the open ones (submitted and being moved in) when absent. */
  status: ReservationStatus.optional(),
  ...reservationSorting.fields,
  ...pagingFields,
});
export type ListReservationsQuery = z.input<typeof ListReservationsQuery>;

/** Name is the renter's last name, then first name; size small to large, renters who take any size last; the newest first unless asked otherwise. */
export const waitlistSorting = listSorting({ joinedAt: 'desc', name: 'asc', size: 'asc' }, 'joinedAt');

export const ListWaitlistQuery = z.strictObject({
  facilityId: Id.optional(),
  ...waitlistSorting.fields,
  ...pagingFields,
});
export type ListWaitlistQuery = z.input<typeof ListWaitlistQuery>;

/** Move-in of a reservation: the lease starts on the move-in date at the unit's rate unless staff say otherwise. */
/** For a pending contact, staff choose the customer: an existing one (customerId) or a new one from the contact (createCustomer). */
export const ConvertReservationRequest = z
  .strictObject({
    startDate: IsoDate.optional(),
    depositAmount: DepositAmount.nullish().transform((v) => v ?? null),
    customerId: Id.optional(),
    createCustomer: z.boolean().optional(),
    /** A protection plan of the unit's facility, and a promotion offered at the desk (absent or null: none). */
    protectionPlanId: Id.nullish(),
    promotionId: Id.nullish(),
  })
  .refine((r) => !(r.customerId !== undefined && r.createCustomer === true), {
    message: 'choose an existing customer or a new one, not both',
    path: ['createCustomer'],
  });
export type ConvertReservationRequest = z.input<typeof ConvertReservationRequest>;
export type ConvertReservationCommand = z.output<typeof ConvertReservationRequest>;

export const CancelReservationRequest = z.strictObject({ reason: z.string().trim().max(500, 'must be at most 500 characters').optional() });
export type CancelReservationRequest = z.input<typeof CancelReservationRequest>;
