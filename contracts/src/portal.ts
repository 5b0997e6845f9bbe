import { z } from 'zod';
import { InvoiceLine } from './billing.ts';
import { InvoiceStatus, UnitSize } from './enums.ts';
import { Email, Id, IsoDate, IsoDateTime } from './fields.ts';

// The renter's customer portal: the gate (email + last 4 phone digits) and what a portal
// session may read about its own customer.

export const VerifyCustomerRequest = z.strictObject({
  email: Email,
  phoneLast4: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
});
export type VerifyCustomerRequest = z.input<typeof VerifyCustomerRequest>;

/** The one-time code mailed to the renter when the phone digits alone no longer open a session. */
export const VerifyCodeRequest = z.strictObject({
  email: Email,
  code: z
    .string()
    .transform((code) => code.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'must be the 6 digits of the code we emailed')),
});
export type VerifyCodeRequest = z.input<typeof VerifyCodeRequest>;

/** The gate's answer when the digits were right but a code is needed: it was mailed to the email on file. */
export const PortalCodeSent = z.object({ codeSent: z.literal(true), message: z.string() });
export type PortalCodeSent = z.infer<typeof PortalCodeSent>;

export const PORTAL_CODE_SENT = 'We emailed you a 6-digit sign-in code. Enter it to open your account.';
export const PORTAL_CODE_REFUSED = 'That code is not right, or it has expired. Ask for a new one.';

/** `email` is only cross-checked against the portal session's customer; the session decides whose data. */
export const CustomerPortalQuery = z.strictObject({ email: Email.optional() });
export type CustomerPortalQuery = z.input<typeof CustomerPortalQuery>;

export const PORTAL_GATE_MISMATCH = "Email and phone number don't match our records.";
export const PORTAL_CUSTOMER_NOT_FOUND = "We couldn't find an account with that email address.";

/** The digits-only last 4 of a phone number, or null when it has fewer than 4 digits. */
export function phoneLast4(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

export const PortalProfile = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  createdAt: IsoDateTime,
});
export type PortalProfile = z.infer<typeof PortalProfile>;

/** Whether the request carries a live portal session: asked once when the portal opens, never a 401. */
export const PortalSession = z.discriminatedUnion('signedIn', [
  z.object({ signedIn: z.literal(false) }),
  z.object({ signedIn: z.literal(true), profile: PortalProfile }),
]);
export type PortalSession = z.infer<typeof PortalSession>;

/** One charge of a bill, with its kind in words ('Late fee': invoiceLineKindLabels). */
export const PortalInvoiceLine = InvoiceLine.extend({ label: z.string() });
export type PortalInvoiceLine = z.infer<typeof PortalInvoiceLine>;

export const PortalInvoice = z.object({
  id: Id,
  customerId: Id,
  invoiceNumber: z.string(),
  amount: z.string(),
  /** What is still owed on it: the amount less its payments ("0.00" once paid). */
  openBalance: z.string(),
  description: z.string().nullable(),
  /** Every charge on it, in the order billing wrote them (rent, a late fee, a credit…); their sum is the amount. */
  lines: z.array(PortalInvoiceLine),
  dueDate: z.string(),
  status: InvoiceStatus,
});
export type PortalInvoice = z.infer<typeof PortalInvoice>;

export const PortalUnit = z.object({
  leaseId: Id,
  unitId: Id,
  building: z.string(),
  unitNumber: z.string(),
  size: UnitSize,
  monthlyRate: z.string(),
  status: z.literal('Active'),
  /** The day the renter moves out, when a move-out is scheduled (null: none). */
  moveOutDate: IsoDate.nullable(),
  /**
   * The lease's gate code and whether it opens the gate now (suspended: a lockout; awaitingSignature:
   * held until the renter signs the lease); null: none assigned yet.
   */
  gateCode: z.object({ code: z.string(), active: z.boolean(), awaitingSignature: z.boolean() }).nullable(),
  /** When the unit's facility lets renters in, in words (accessHoursWords): '24/7' or '6:00 AM – 10:00 PM every day'. */
  accessHours: z.string(),
});
export type PortalUnit = z.infer<typeof PortalUnit>;

/** One attempt the facility's gateway reported for the renter (their gate code, or a lock of their unit). */
export const PortalAccessLog = z.object({
  id: Id,
  occurredAt: IsoDateTime,
  unitNumber: z.string().nullable(),
  lockId: z.string().nullable(),
  /** How: 'Gate code' or 'Lock'. */
  method: z.string().nullable(),
  granted: z.boolean(),
  /** Why, as the gateway said (denied: suspended code, overlocked, …). */
  reason: z.string(),
});
export type PortalAccessLog = z.infer<typeof PortalAccessLog>;

/** One place a renter calls: a facility they rent at (or the business, for a renter of none). */
export const PortalContactPlace = z.object({
  /** null: the business. */
  facilityId: Id.nullable(),
  name: z.string().nullable(),
  /** The facility's phone; the business's where the facility has none. */
  phone: z.string().nullable(),
  address: z.string().nullable(),
  /** The renter's units there, so a renter of two facilities knows which number is whose. */
  units: z.array(z.object({ building: z.string(), unitNumber: z.string() })),
});
export type PortalContactPlace = z.infer<typeof PortalContactPlace>;

/**
 * How a renter reaches the people who run their storage: each facility of their leases (its
 * name, phone and address), or the business for a renter of no facility; the business's email.
 */
export const PortalContact = z.object({
  places: z.array(PortalContactPlace).min(1),
  email: z.string().nullable(),
});
export type PortalContact = z.infer<typeof PortalContact>;

/** The renter's standing: the exact open balance of unpaid (sent or overdue) bills, OVERDUE when one is past due. */
export const PortalAccount = z.object({
  openBalance: z.string(),
  status: z.enum(['CURRENT', 'OVERDUE']),
  /** The least a payment toward the balance may be: what is due today or earlier (0.01 when nothing is due yet; 0.00 when nothing is owed). */
  minimumDue: z.string(),
  /** Money on the account that no invoice has taken yet; the next invoice uses it. */
  credit: z.string(),
});
export type PortalAccount = z.infer<typeof PortalAccount>;
