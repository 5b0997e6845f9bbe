import { z } from 'zod';
import { AccessHours } from './access-hours.ts';
import { BillingSettings, DEFAULT_TIME_ZONE, InvoiceLine, singleLine } from './billing.ts';
import { DelinquencyStep } from './delinquency.ts';
import {
  CustomerStatus,
  DelinquencyStepKind,
  DeskPaymentMethod,
  InvoiceStatus,
  LockDesiredState,
  LockStatus,
  MessageTemplateKey,
  PaymentMethod,
  StaffRole,
  UnitSize,
  UnitStatus,
} from './enums.ts';
import { Id, IsoDate, IsoDateTime } from './fields.ts';
import { SignatureChannel, SignedLeaseDocument } from './lease-signatures.ts';
import { LeaseTerms } from './lease-terms.ts';
import { LeasePromotion, Promotions } from './promotions.ts';
import { LeaseProtection, ProtectionChangeReason, ProtectionSettings } from './protection.ts';
import { NO_UNIT_FEATURES, UnitFeatures } from './unit-features.ts';

// The one catalogue of domain events. Each type has a current schema version; an event stored
// under an older version is turned into the current shape by its upcasters on read.

const text = z.string();
const nullableText = z.string().nullable();
const amount = z.string().regex(/^-?\d+\.\d{2}$/);

const CustomerContact = z.object({
  firstName: text,
  lastName: text,
  email: text,
  phone: nullableText,
  address: nullableText,
  emergencyContact: nullableText,
  emergencyPhone: nullableText,
});

const CustomerFields = CustomerContact.extend({ status: CustomerStatus, facilityId: Id.nullable() });

/** What a renter typed on the public reservation form, kept as typed. */
const ReservationContact = CustomerContact;

export const eventSchemas = {
  staff_registered: z.object({
    staffId: Id,
    email: text,
    firstName: nullableText,
    lastName: nullableText,
    role: StaffRole,
    /** v2: the credential (a row of the write side's staff_credentials) the account signs in with; never the hash itself. */
    credentialId: Id,
  }),
  /** v2: the new credential; v1 carried the password hash itself. */
  staff_password_changed: z.object({ staffId: Id, credentialId: Id }),
  staff_role_changed: z.object({ staffId: Id, role: StaffRole }),
  /** The account can no longer sign in, and its sessions end. */
  staff_deactivated: z.object({ staffId: Id }),
  staff_reactivated: z.object({ staffId: Id }),
  /**
   * The member turned two-factor sign-in on with a code from their app: the factor is a row of the
   * write side's staff_two_factor (its secret, encrypted, and its recovery codes' hashes never
   * leave it).
   */
  staff_two_factor_enabled: z.object({ staffId: Id, factorId: Id }),
  /** The member turned two-factor sign-in off (with their password and a code). */
  staff_two_factor_disabled: z.object({ staffId: Id, factorId: Id }),
  /** An owner turned the member's two-factor sign-in off (a lost phone): they sign in with their password, and may set it up again. */
  staff_two_factor_reset: z.object({ staffId: Id, factorId: Id }),

  /**
   * v2: timeZone, the IANA zone the facility's days, due dates and billing run in (v1: UTC).
   * accessHours: the gate's hours; null or missing (facilities added before it): 24-hour access.
   */
  facility_added: z.object({
    facilityId: Id,
    name: text,
    address: text,
    phone: nullableText,
    managerName: nullableText,
    timeZone: text,
    accessHours: AccessHours.nullable().optional(),
  }),
  facility_updated: z.object({
    facilityId: Id,
    changes: z
      .object({ name: text, address: text, phone: nullableText, managerName: nullableText, timeZone: text, accessHours: AccessHours.nullable() })
      .partial(),
  }),
  /** A facility's lock gateways authenticate with a new key; only its hash is kept, and the old key stops working. */
  gateway_key_rotated: z.object({ facilityId: Id, keyHash: text, keyPrefix: text }),

  /** v2: features, what the unit offers a renter (v1: none said). */
  unit_added: z.object({
    unitId: Id,
    facilityId: Id.nullable(),
    unitNumber: text,
    building: text,
    size: UnitSize,
    monthlyRate: amount,
    status: UnitStatus,
    description: nullableText,
    features: UnitFeatures,
  }),
  /** Staff set what the unit offers (all of it: climate control, drive-up, floor, lock type). */
  unit_features_changed: z.object({ unitId: Id, features: UnitFeatures }),
  // leaseId / reservationId: which lease or reservation holds the unit after the change
  // (absent in events written before they were recorded: the defaults apply).
  unit_status_changed: z.object({
    unitId: Id,
    status: UnitStatus,
    reason: nullableText,
    leaseId: Id.nullable().default(null),
    reservationId: Id.nullable().default(null),
  }),

  customer_added: CustomerFields.extend({ customerId: Id }),
  /**
   * Contact details staff edited. An edit no longer carries the standing or the facility; events
   * written before may hold status and facilityId among the changes, which are applied as written.
   */
  customer_updated: z.object({ customerId: Id, changes: CustomerFields.partial() }),
  /** Refused while the renter has an active lease or an open balance. */
  customer_archived: z.object({ customerId: Id }),
  /** An archived customer is back, with their email (refused while another customer holds it). */
  customer_restored: z.object({ customerId: Id }),
  /**
   * A lease of the customer's, listed on their stream once the move-in has taken the unit and
   * before the lease's own stream is written: what is decided about the customer (an archive)
   * reads their leases on their streams, never the read model. A listed lease that never started
   * is passed over once its unit is let go.
   */
  customer_lease_listed: z.object({ customerId: Id, leaseId: Id, unitId: Id }),
  /** A note staff keep on the customer (who wrote it is the event's actor). */
  customer_note_added: z.object({ customerId: Id, noteId: Id, text }),
  /**
   * Money on the renter's account that no invoice took (an overpayment), or a credit staff gave
   * with a reason; the billing run applies it to open invoices, oldest first.
   */
  account_credited: z.object({ customerId: Id, creditId: Id, amount, reason: text, receiptId: Id.nullable() }),
  /**
   * A payment taken at the desk, planned before any invoice is paid: which open invoices it pays
   * and how much (each then gets its payment_received under this receipt), and what is left over
   * as credit on the account. A repeat of the receipt finishes this plan, never makes another.
   */
  desk_payment_received: z.object({
    customerId: Id,
    receiptId: Id,
    amount,
    method: DeskPaymentMethod,
    reference: nullableText,
    allocations: z.array(z.object({ invoiceId: Id, amount })),
    credit: amount,
  }),
  /**
   * A card payment the renter made in the portal for an amount of their choosing (from the
   * minimum due up to the whole balance), planned as a desk payment is: which open invoices it
   * pays, oldest first, and what is left over as credit. receiptId is derived from the intent, so
   * every report of the intent finishes this one plan.
   */
  portal_payment_received: z.object({
    customerId: Id,
    receiptId: Id,
    amount,
    stripePaymentIntentId: text,
    allocations: z.array(z.object({ invoiceId: Id, amount })),
    credit: amount,
  }),
  /**
   * An invoice of the renter's, listed on their account before the invoice's own stream is
   * written: the write side decides money (what a payment pays, what is past due) from the
   * account's invoices read on their streams, never from the read model. A listed invoice whose
   * stream was never written (a crash between the two) is passed over.
   */
  account_invoice_listed: z.object({ customerId: Id, invoiceId: Id }),
  /** Part of the account's credit taken for an invoice (paid on it as an account_credit payment). */
  account_credit_applied: z.object({ customerId: Id, applicationId: Id, invoiceId: Id, amount }),
  /** Credit on the renter's account handed back to them (cash, a check, a transfer), with a reason. */
  account_credit_refunded: z.object({ customerId: Id, refundId: Id, amount, method: DeskPaymentMethod, reference: nullableText, reason: text }),
  /**
   * The renter's standing, with why: the billing engine's, which follows their invoices (overdue,
   * or in good standing again), or a manager's decision (inactive, terminated, or active again).
   */
  customer_standing_changed: z.object({ customerId: Id, status: CustomerStatus, reason: text }),

  // v2: facilityId, the facility of the unit when the lease started (null: a unit of no facility,
  // or a v1 event, written before it was recorded).
  lease_started: z.object({
    leaseId: Id,
    customerId: Id,
    unitId: Id,
    facilityId: Id.nullable(),
    startDate: IsoDate,
    monthlyRate: amount,
    depositAmount: amount.nullable(),
  }),
  lease_ended: z.object({ leaseId: Id, customerId: Id, unitId: Id, endDate: IsoDate }),
  /**
   * At move-out, staff chose what becomes of the deposit the renter paid: returned to them
   * (method: how), or applied to what they still owe. Recorded once per lease; the money follows
   * as account events named from the lease.
   */
  lease_deposit_settled: z.object({
    leaseId: Id,
    customerId: Id,
    amount,
    disposition: z.enum(['returned', 'applied']),
    method: DeskPaymentMethod.nullable(),
  }),
  /** The lease's rent is invoiced up to periodEnd (the move-in invoice, then each period's). */
  lease_rent_billed: z.object({ leaseId: Id, invoiceId: Id, periodStart: IsoDate, periodEnd: IsoDate }),
  /**
   * Staff moved the renter out on a day after the facility's today (scheduledOn): until endDate
   * the lease runs on (billed up to endDate, the unit theirs, the gate code theirs); on endDate the
   * facility's day moves them out as a move-out dated that day would, the deposit as chosen here
   * (deposit null: not touched; depositMethod: how a returned one is handed back).
   */
  lease_move_out_scheduled: z.object({
    leaseId: Id,
    customerId: Id,
    unitId: Id,
    endDate: IsoDate,
    scheduledOn: IsoDate,
    deposit: z.enum(['return', 'apply']).nullable(),
    depositMethod: DeskPaymentMethod.nullable(),
  }),
  /** The scheduled move-out on endDate will not happen: the lease runs on (cancelledOn: the facility's date). */
  lease_move_out_cancelled: z.object({ leaseId: Id, customerId: Id, unitId: Id, endDate: IsoDate, cancelledOn: IsoDate, reason: nullableText }),

  /** v2: lines, whose sum is the amount (v1, one amount: one line). */
  invoice_generated: z.object({
    invoiceId: Id,
    invoiceNumber: text,
    customerId: Id,
    leaseId: Id.nullable(),
    amount,
    dueDate: IsoDate,
    status: InvoiceStatus,
    description: nullableText,
    lines: z.array(InvoiceLine).min(1),
  }),
  /** A line added to an open invoice (the late fee); amount is the invoice's new total. */
  invoice_line_added: z.object({ invoiceId: Id, customerId: Id, line: InvoiceLine, amount }),
  /**
   * sentOn: the facility's date it was sent (the billing day's, in a catch-up); an invoice for a
   * past period is late only from then. Null in events written before it was kept.
   */
  invoice_sent: z.object({ invoiceId: Id, sentOn: IsoDate.nullable().default(null) }),
  invoice_overdue: z.object({ invoiceId: Id, customerId: Id }),
  /** Voided; reason: why (absent before it was asked for). */
  invoice_cancelled: z.object({ invoiceId: Id, reason: nullableText.default(null) }),
  /** What was still owed (amount) became bad debt; the invoice is closed. */
  invoice_written_off: z.object({ invoiceId: Id, customerId: Id, amount, reason: text }),
  /**
   * A payment of part or all of the invoice's open balance. reference: a check number or a
   * transfer's reference; receiptId: the desk payment it is part of (one payment over several
   * invoices); both null in events written before they were kept.
   */
  payment_received: z.object({
    paymentId: Id,
    invoiceId: Id,
    customerId: Id,
    amount,
    method: PaymentMethod,
    paidDate: IsoDate,
    stripePaymentIntentId: nullableText,
    reference: nullableText.default(null),
    receiptId: Id.nullable().default(null),
    /**
     * The invoice as the payment left it, as the write side decided: its status ('paid' once
     * nothing is owed, else as it was) and what is still open on it. The read model copies them.
     * Null in payments recorded before they were carried (the projection works them out then).
     */
    invoiceStatus: InvoiceStatus.nullable().default(null),
    openBalance: amount.nullable().default(null),
  }),
  /**
   * A card charge that went through on an invoice it could not pay (already paid by another
   * payment, or cancelled) was given back through the provider: the money is never kept.
   */
  payment_refunded: z.object({
    paymentId: Id,
    invoiceId: Id,
    customerId: Id,
    amount,
    stripePaymentIntentId: text,
    /** The provider's id of the refund. */
    refundId: text,
    reason: z.enum(['invoice_already_paid', 'invoice_cancelled', 'amount_not_balance']),
  }),
  /**
   * Staff decided to give back (part of) a card payment, with a reason; recorded before the
   * provider is asked, so that a refund the provider makes is never lost to a crash: the amount is
   * held against what the payment can still give back, and payment_refund_issued (same refundId)
   * follows once the provider has refunded (a repeat of the request, or the payment
   * reconciliation, finishes it). The money is not owed again until then: the invoice and the
   * ledger change on issue.
   */
  payment_refund_requested: z.object({
    refundId: Id,
    paymentId: Id,
    invoiceId: Id,
    customerId: Id,
    amount,
    method: PaymentMethod,
    reason: text,
    refundDate: IsoDate,
  }),
  /**
   * Staff gave back (part of) a payment, with a reason: a card payment through the provider
   * (providerRefundId), any other recorded as money handed back. The money is owed again, so the
   * invoice's open balance rises by the amount and a paid invoice reopens: invoiceStatus is its
   * status after the refund (sent, or overdue when its due date has passed).
   */
  payment_refund_issued: z.object({
    refundId: Id,
    paymentId: Id,
    invoiceId: Id,
    customerId: Id,
    amount,
    method: PaymentMethod,
    reason: text,
    refundDate: IsoDate,
    providerRefundId: nullableText,
    invoiceStatus: InvoiceStatus,
  }),

  lock_installed: z.object({
    lockId: Id,
    serial: text,
    unitId: Id.nullable(),
    status: LockStatus,
    batteryLevel: z.number().int().min(0).max(100),
    firmwareVersion: nullableText,
  }),
  lock_heartbeat_received: z.object({ lockId: Id, batteryLevel: z.number().int().min(0).max(100), firmwareVersion: nullableText }),
  lock_battery_low: z.object({ lockId: Id, batteryLevel: z.number().int().min(0).max(100) }),
  lock_status_changed: z.object({ lockId: Id, status: LockStatus }),
  lock_assigned: z.object({ lockId: Id, unitId: Id.nullable() }),
  access_granted: z.object({ lockId: Id, unitId: Id.nullable(), customerId: Id.nullable(), method: text }),

  // v2: customerId is null while the renter's contact is pending (the email belongs to an existing
  // customer: staff choose who it is when converting), and contact keeps what the renter typed
  // (null in v1 events, written before it was kept: the customer's own details apply).
  reservation_submitted: z.object({
    reservationId: Id,
    unitId: Id,
    customerId: Id.nullable(),
    contact: ReservationContact.nullable(),
    moveInDate: IsoDate,
    specialRequests: nullableText,
  }),
  /** Staff moved the renter in: the reservation became this lease. */
  reservation_converted: z.object({ reservationId: Id, leaseId: Id }),
  reservation_cancelled: z.object({ reservationId: Id, unitId: Id, reason: nullableText }),
  /** Not converted within the hold period: the unit is offered again. */
  reservation_expired: z.object({ reservationId: Id, unitId: Id }),
  // --- Workflows across aggregates (move-in of a reservation, online reservation, lease start) ---
  /** Staff started moving the renter in: from here the reservation belongs to this lease (no cancel, no expiry). */
  // protectionPlanId, promotionId: chosen for the lease (absent in conversions recorded before
  // they could be: none); channel: where the move-in was made (absent: the desk).
  reservation_conversion_started: z.object({
    reservationId: Id,
    leaseId: Id,
    customerId: Id,
    unitId: Id,
    startDate: IsoDate,
    monthlyRate: amount,
    depositAmount: amount.nullable(),
    protectionPlanId: Id.nullable().default(null),
    promotionId: Id.nullable().default(null),
    channel: z.enum(['desk', 'online']).default('desk'),
  }),
  /**
   * The renter of an online reservation is paying for the move-in online: the card payment
   * (paymentIntentId, for the move-in invoice's amount) and what it is for. The payment, once it
   * succeeds, moves them in on these choices; a later checkout of the same intent replaces them.
   */
  reservation_checkout_started: z.object({
    reservationId: Id,
    paymentIntentId: text,
    amount,
    /** The lease's first day: the move-in invoice the payment is for is that day's. */
    startDate: IsoDate,
    protectionPlanId: Id.nullable(),
    promotionId: Id.nullable(),
    /**
     * The renter's signature of the agreement these choices make, given before paying (absent on
     * checkouts recorded before renters signed first): the move-in records it on the lease.
     */
    signature: z
      .object({ signerName: text, mark: text, signedAt: IsoDateTime, ipAddress: text, userAgent: text, documentSha256: text, document: SignedLeaseDocument })
      .optional(),
  }),
  /** The online payment was given back: the rental could not be made (the reason), so the money is not kept. */
  reservation_checkout_refunded: z.object({ reservationId: Id, paymentIntentId: text, refundId: text, amount, reason: text }),
  /** The move-in could not finish (the lease was refused): the reservation is open again and holds its unit. */
  reservation_conversion_abandoned: z.object({ reservationId: Id, leaseId: Id, reason: text }),
  /** An online reservation held its unit but was never submitted (the request stopped): the unit is let go. */
  reservation_submission_abandoned: z.object({ reservationId: Id, unitId: Id }),
  /** A lease took its unit but never started (the request stopped): the unit is let go and the lease can no longer start. */
  lease_start_abandoned: z.object({ leaseId: Id, unitId: Id, reason: text }),
  // --- end of workflow events ---

  waitlist_joined: z.object({
    entryId: Id,
    firstName: text,
    lastName: text,
    email: text,
    phone: text,
    size: UnitSize.nullable(),
    facilityId: Id.nullable(),
  }),

  notification_read: z.object({ notificationId: Id }),
  /** Every notification raised before this event in the scope (one facility, or all when null) is read. */
  notifications_marked_read: z.object({ facilityId: Id.nullable() }),

  business_profile_updated: z.object({ scope: text, name: text, phone: nullableText, email: nullableText }),
  notification_preferences_updated: z.object({
    scope: text,
    overduePaymentAlerts: z.boolean(),
    lowBatteryAlerts: z.boolean(),
    newCustomerAlerts: z.boolean(),
  }),
  payment_settings_updated: z.object({ scope: text, automaticCharging: z.boolean(), lateFeeAmount: amount }),
  /** The business's billing settings (scope 'business'), or a facility's own (scope: its id; null: the business's apply). */
  billing_settings_updated: z.object({ scope: text, settings: BillingSettings.nullable() }),
  /** Whether every staff member must sign in with two factors (scope 'business'). */
  security_settings_updated: z.object({ scope: text, twoFactorRequired: z.boolean() }),
  /**
   * The business clock moved forward to `date` (a demo, or a day run ahead with billing:run
   * --date): from then on the product's today is `date`, and each day after it, everywhere (the
   * commands' times, the ledger, the reports, the billing day). `from`: the wall clock's date (UTC)
   * when it moved, so the clock runs that many days ahead of it. It never moves back.
   */
  business_day_advanced: z.object({ date: IsoDate, from: IsoDate }),
  /** One billing run of one facility's day: what it issued, charged and marked, and what it skipped and why. */
  billing_run_completed: z.object({
    runId: Id,
    facilityId: Id.nullable(),
    billingDate: IsoDate,
    invoicesIssued: z.number().int(),
    lateFeesCharged: z.number().int(),
    invoicesOverdue: z.number().int(),
    skipped: z.array(z.object({ leaseId: Id, reason: text })),
  }),

  // --- Delinquency (issue 13): the schedule, its steps on a renter, pauses ---
  /** The delinquency schedule of the business (scope 'business'), or a facility's own (scope: its id; null: the business's applies). */
  delinquency_settings_updated: z.object({ scope: text, steps: z.array(DelinquencyStep).nullable() }),
  /**
   * A step of the schedule fired on a renter (stream delinquency-<customer>): the rule (kind, day),
   * the invoice whose due date it counts from, the facility's date it fired, and the past-due
   * balance then. At most one per invoice and kind.
   */
  delinquency_step_taken: z.object({ customerId: Id, kind: DelinquencyStepKind, day: z.number().int(), invoiceId: Id, date: IsoDate, pastDue: amount }),
  /**
   * The renter's past-due balance fell to the schedule's threshold or below (a payment, credit, a
   * write-off): the schedule stops and what it did is undone (access restored). reason: what did it.
   */
  delinquency_cleared: z.object({ customerId: Id, date: IsoDate, pastDue: amount, reason: text }),
  /** Staff paused the renter's schedule until a date (a promise to pay), with a reason; no step fires meanwhile. */
  delinquency_paused: z.object({ customerId: Id, until: IsoDate, reason: text }),
  /** Staff ended a pause early. */
  delinquency_resumed: z.object({ customerId: Id, reason: text }),

  // --- Access (issue 13): gate codes, what each lock should be, what gateways report ---
  /** A lease's gate code (unique in its facility), at move-in or rotated by staff; shown to the renter, redacted in the history. */
  gate_code_assigned: z.object({
    leaseId: Id,
    customerId: Id,
    facilityId: Id.nullable(),
    code: text,
    reason: z.enum(['move_in', 'rotated']),
    /**
     * The move-in's code opens nothing until the renter signs the lease (the facility asks for a
     * signed lease before access). Absent: it opens the gate at once.
     */
    awaitingSignature: z.boolean().optional(),
  }),
  /** The code opens nothing (a lockout, a move-out, a lease not signed yet). */
  gate_code_suspended: z.object({ leaseId: Id, customerId: Id, reason: z.enum(['lockout', 'move_out', 'unsigned']) }),
  /** The renter signed the lease: the code held until then opens the gate (unless a lockout or the move-out holds it). */
  gate_code_activated: z.object({ leaseId: Id, customerId: Id }),
  /** The code opens the gate again (the lockout was undone). */
  gate_code_reinstated: z.object({ leaseId: Id, customerId: Id, reason: text }),
  /** What the lock should be (stream lock-<id>); the facility's gateway learns it from its heartbeat answer. */
  lock_desired_state_changed: z.object({
    lockId: Id,
    unitId: Id.nullable(),
    customerId: Id.nullable(),
    desired: LockDesiredState,
    reason: text,
  }),
  /** The gateway applied a desired state: what the lock now is. */
  lock_state_reported: z.object({ lockId: Id, reported: LockDesiredState }),
  /** Someone tried a gate code or a lock (stream access-log-<facility>-<date>); the code itself is never kept. */
  access_attempted: z.object({
    attemptId: Id,
    facilityId: Id,
    lockId: Id.nullable(),
    leaseId: Id.nullable(),
    customerId: Id.nullable(),
    via: z.enum(['gate_code', 'lock']),
    granted: z.boolean(),
    reason: text,
    at: IsoDateTime,
  }),

  // --- Autopay (issue 13): saved cards, enrolment, off-session charges ---
  /** The renter saved a card: the provider's references to it, never its number. */
  payment_method_saved: z.object({
    customerId: Id,
    paymentMethodId: Id,
    provider: z.enum(['test', 'stripe']),
    providerCustomerId: text,
    providerPaymentMethodId: text,
    brand: text,
    last4: text,
    expMonth: z.number().int(),
    expYear: z.number().int(),
  }),
  payment_method_removed: z.object({ customerId: Id, paymentMethodId: Id }),
  autopay_enrolled: z.object({ customerId: Id, paymentMethodId: Id }),
  autopay_cancelled: z.object({ customerId: Id, reason: text }),
  /** An off-session charge of what the renter owes on an invoice (attempt 1 on its due date, then the retries). */
  autopay_charge_attempted: z.object({ attemptId: Id, customerId: Id, invoiceId: Id, attempt: z.number().int(), amount, date: IsoDate }),
  autopay_charge_succeeded: z.object({
    attemptId: Id,
    customerId: Id,
    invoiceId: Id,
    attempt: z.number().int(),
    amount,
    stripePaymentIntentId: text,
  }),
  /** nextAttemptOn null: the last attempt failed (renter and staff are told); requiresAction: the card needs the renter (3-D Secure). */
  autopay_charge_failed: z.object({
    attemptId: Id,
    customerId: Id,
    invoiceId: Id,
    attempt: z.number().int(),
    amount,
    reason: text,
    requiresAction: z.boolean(),
    nextAttemptOn: IsoDate.nullable(),
  }),

  // --- Messages to renters (issue 13) ---
  /** An owner's wording of a message (subject and body with {placeholders}); null: the product's own. */
  message_template_updated: z.object({ templateKey: MessageTemplateKey, template: z.object({ subject: text, body: text }).nullable() }),
  /** The messages the renter does not want (where the law allows them a choice). */
  customer_message_preferences_updated: z.object({ customerId: Id, optOuts: z.array(MessageTemplateKey) }),

  // --- Rent changes (issue 13), on the lease's stream ---
  /** A new rate from effectiveDate (no sooner than the notice period after noticeDate); the billing run uses it from then. */
  lease_rent_change_scheduled: z.object({
    leaseId: Id,
    customerId: Id,
    changeId: Id,
    currentRate: amount,
    newRate: amount,
    noticeDate: IsoDate,
    effectiveDate: IsoDate,
    reason: nullableText,
  }),
  lease_rent_change_cancelled: z.object({ leaseId: Id, changeId: Id, reason: text }),

  // --- Protection plans and promotions ---
  /** The protection plans of the business (scope 'business'), or a facility's own (scope: its id; null: the business's apply). */
  protection_settings_updated: z.object({ scope: text, settings: ProtectionSettings.nullable() }),
  /** The business's promotions, all of them (scope 'business'). */
  promotions_updated: z.object({ scope: text, promotions: Promotions }),
  /**
   * The lease's protection plan from effectiveDate (the first day of the first period not yet
   * invoiced, or the move-in): the plan as it was then (null: none from then on).
   */
  lease_protection_changed: z.object({
    leaseId: Id,
    customerId: Id,
    protection: LeaseProtection.nullable(),
    effectiveDate: IsoDate,
    reason: ProtectionChangeReason,
  }),
  /** The renter's own insurance, on file until expiresOn (a newer proof replaces it). */
  lease_insurance_proof_recorded: z.object({ leaseId: Id, customerId: Id, carrier: text, policyNumber: text, expiresOn: IsoDate }),
  /** The promotion given at the move-in, as it was then: billing takes its discount off the first months' rent. */
  lease_promotion_applied: z.object({ leaseId: Id, customerId: Id, promotion: LeasePromotion }),

  // --- Lease signatures ---
  /**
   * The renter signed the lease agreement (channel: at the desk or online): their typed name, the
   * mark they drew, the request's address and browser, and the document as signed with its
   * SHA-256 (computed by the server over its canonical text). A later signature of a changed
   * document is recorded beside it.
   */
  lease_signed: z.object({
    leaseId: Id,
    customerId: Id,
    signerName: text,
    mark: text,
    signedAt: IsoDateTime,
    ipAddress: text,
    userAgent: text,
    documentSha256: text,
    channel: SignatureChannel,
    document: SignedLeaseDocument,
  }),

  // --- Merchandise (the desk's goods and fees, each item on its own stream) ---
  /** stock: items on hand; null: an item with no stock to count (a service fee). */
  merchandise_item_added: z.object({ itemId: Id, facilityId: Id, name: text, price: amount, taxable: z.boolean(), stock: z.number().int().nullable() }),
  /** What staff set of an item, all of it (active false: retired, no longer sold). */
  merchandise_item_changed: z.object({ itemId: Id, facilityId: Id, name: text, price: amount, taxable: z.boolean(), active: z.boolean() }),
  merchandise_restocked: z.object({ itemId: Id, facilityId: Id, quantity: z.number().int(), stockAfter: z.number().int() }),
  /** A count of the shelf corrected the stock (stockBefore → stockAfter), with why. */
  merchandise_stock_adjusted: z.object({ itemId: Id, facilityId: Id, stockBefore: z.number().int(), stockAfter: z.number().int(), reason: text }),
  /**
   * Sold to a renter as part of the sale `saleId`, billed on `invoiceId`: the name, price and
   * taxability as they were then, so a retry issues the invoice the sale was decided on.
   */
  merchandise_sold: z.object({
    itemId: Id,
    facilityId: Id,
    saleId: Id,
    quantity: z.number().int(),
    customerId: Id,
    invoiceId: Id,
    name: text,
    price: amount,
    taxable: z.boolean(),
    stockAfter: z.number().int().nullable(),
  }),
  /** A sale's items put back on the shelf: another item of the same sale could not be sold, so nothing of it was billed. */
  merchandise_sale_undone: z.object({
    itemId: Id,
    facilityId: Id,
    saleId: Id,
    quantity: z.number().int(),
    stockAfter: z.number().int().nullable(),
    reason: text,
  }),

  // --- The lease template ---
  /** The business's additional lease terms (facilityId null), or a facility's own (terms null: it follows the business's). */
  lease_terms_updated: z.object({ facilityId: Id.nullable(), terms: LeaseTerms.nullable() }),

  unique_key_claimed: z.object({ ownerStream: text }),
  unique_key_released: z.object({ ownerStream: text }),
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

export const eventTypes = Object.keys(eventSchemas) as EventType[];

/** The schema version each event type is written with today. */
export const currentSchemaVersion: Record<EventType, number> = {
  ...(Object.fromEntries(eventTypes.map((t) => [t, 1])) as Record<EventType, number>),
  lease_started: 2,
  reservation_submitted: 2,
  facility_added: 2,
  invoice_generated: 2,
  unit_added: 2,
  staff_registered: 2,
  staff_password_changed: 2,
};

type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;
/** upcasters[type][v] turns version v into version v + 1. */
export const upcasters: Partial<Record<EventType, Record<number, Upcaster>>> = {
  lease_started: { 1: (data) => ({ ...data, facilityId: null }) },
  facility_added: { 1: (data) => ({ ...data, timeZone: DEFAULT_TIME_ZONE }) },
  // One amount becomes one line.
  invoice_generated: {
    1: (data) => ({ ...data, lines: [singleLine(data as { leaseId: string | null; description: string | null; amount: string })] }),
  },
  reservation_submitted: { 1: (data) => ({ ...data, contact: null }) },
  unit_added: { 1: (data) => ({ ...data, features: NO_UNIT_FEATURES }) },
  // v1 carried the password hash: it is dropped on read, and the account's legacy credential
  // (copied out of the history by migration 012 under the staff id) is named instead.
  staff_registered: { 1: ({ passwordHash: _hash, ...data }) => ({ ...data, credentialId: data.staffId }) },
  staff_password_changed: { 1: ({ passwordHash: _hash, ...data }) => ({ ...data, credentialId: data.staffId }) },
};

/**
 * Fields of events that hold a secret (or what would let one be found or replayed). Every surface
 * that shows event data (per-entity history, the audit log and its export) shows them only as
 * REDACTED, through `readableEvent` / `redactEvent`. Declare a new secret field here.
 */
export const secretFields: { readonly [T in EventType]?: readonly (keyof EventData<T> & string)[] } = {
  gateway_key_rotated: ['keyHash'],
  gate_code_assigned: ['code'],
};

/** Field names that held secrets in older versions of events, or in events this release does not know. */
const legacySecretFieldNames = ['passwordHash', 'password', 'passwordHashes'];

export const REDACTED = '[redacted]';

function redactFields(data: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const field of fields) if (Object.hasOwn(out, field)) out[field] = REDACTED;
  return out;
}

/** A gate code's claim is a stream named after the facility and the code (a secret): shown without the code. */
const GATE_CODE_CLAIM = /^(unique-gate-code-[^:]*:).+$/;

/** A stream's name as any reader of the history may see it. */
export function shownStreamName(streamName: string): string {
  return streamName.replace(GATE_CODE_CLAIM, `$1${REDACTED}`);
}

/** The event with its secret fields replaced by REDACTED: what any reader of the history may see. */
export function redactEvent<E extends DomainEvent>(event: E): E {
  const fields = secretFields[event.type] as readonly string[] | undefined;
  if (!fields) return event;
  return { ...event, data: redactFields(event.data as Record<string, unknown>, fields) } as E;
}

/**
 * The one way to show a stored event's data: brought to its current shape (which drops what older
 * versions held that is no longer kept) and redacted. Data of a type this release does not know
 * is shown without any field that is secret in any known type or was in an older version.
 */
export function readableEvent(type: string, version: number, data: Record<string, unknown>): Record<string, unknown> {
  if (isEventType(type)) return redactEvent(upcast(type, version, data)).data as Record<string, unknown>;
  const names = new Set<string>(legacySecretFieldNames);
  for (const fields of Object.values(secretFields)) for (const f of fields ?? []) names.add(f);
  return Object.fromEntries(Object.entries(data).filter(([key]) => !names.has(key)));
}

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventSchemas, type);
}

/** A stored event this code cannot read: written by a newer release, or with no such version. */
export class UnsupportedSchemaVersionError extends Error {
  constructor(type: EventType, version: number) {
    super(`${type} v${version} cannot be read: this release reads versions 1 to ${currentSchemaVersion[type]}`);
    this.name = 'UnsupportedSchemaVersionError';
  }
}

/** Brings a stored event's data to the current shape and validates it. */
export function upcast(type: EventType, version: number, data: Record<string, unknown>): DomainEvent {
  if (!Number.isInteger(version) || version < 1 || version > currentSchemaVersion[type]) throw new UnsupportedSchemaVersionError(type, version);
  let current = data;
  for (let v = version; v < currentSchemaVersion[type]; v++) {
    const step = upcasters[type]?.[v];
    if (!step) throw new Error(`No upcaster for ${type} v${v}`);
    current = step(current);
  }
  return { type, data: eventSchemas[type].parse(current) } as DomainEvent;
}

/** The kinds of key the write side keeps unique, each claimed on a stream of its own (`streams.uniqueKey`). */
export const uniqueKeyKinds = ['customer-email', 'staff-email', 'unit-number', 'invoice-number', 'facility-name', 'lock-serial', 'gate-code'] as const;
export type UniqueKeyKind = (typeof uniqueKeyKinds)[number];

export const streams = {
  staff: (id: string) => `staff-${id}`,
  facility: (id: string) => `facility-${id}`,
  unit: (id: string) => `unit-${id}`,
  customer: (id: string) => `customer-${id}`,
  lease: (id: string) => `lease-${id}`,
  invoice: (id: string) => `invoice-${id}`,
  /** One item a facility sells: its price, its stock, its sales. */
  merchandise: (id: string) => `merchandise-${id}`,
  lock: (id: string) => `lock-${id}`,
  /** A lock's routine heartbeats, off its decision stream so that no lock command replays them. */
  lockHeartbeats: (lockId: string) => `lock-heartbeats-${lockId}`,
  reservation: (id: string) => `reservation-${id}`,
  waitlistEntry: (id: string) => `waitlist-${id}`,
  notification: (id: string) => `notification-${id}`,
  /** "Mark all as read" of one facility's notifications, or of all (`all`). */
  notificationMarks: (facilityId: string | null) => `notification-marks-${facilityId ?? 'all'}`,
  settings: (scope: string) => `settings-${scope}`,
  /** A renter's account: credits from overpayments and from staff, and where they were applied. */
  account: (customerId: string) => `account-${customerId}`,
  /** The billing runs of one facility's day (facility null: units of no facility). */
  billingDay: (facilityId: string | null, date: string) => `billing-day-${facilityId ?? 'none'}-${date}`,
  /** The product's business clock: how far ahead of the wall clock its today runs. */
  businessClock: () => 'business-clock',
  /** A renter's delinquency: the schedule's steps taken, pauses, clearing. */
  delinquency: (customerId: string) => `delinquency-${customerId}`,
  /** A lease's gate code: assigned, suspended, reinstated. */
  gateCode: (leaseId: string) => `gate-code-${leaseId}`,
  /** Access attempts a facility's gateway reported on one day (in the facility's zone). */
  accessLog: (facilityId: string, date: string) => `access-log-${facilityId}-${date}`,
  /** A renter's saved cards and autopay enrolment. */
  paymentProfile: (customerId: string) => `payment-profile-${customerId}`,
  /** The autopay charges of one invoice: every attempt, its outcome. */
  autopayCharges: (invoiceId: string) => `autopay-${invoiceId}`,
  /** The owner's wording of one message template. */
  messageTemplate: (key: string) => `message-template-${key}`,
  /** Claims a unique key (an email, a unit number) so uniqueness holds under concurrency. */
  uniqueKey: (kind: UniqueKeyKind, key: string) => `unique-${kind}-${key}`,
};

/** Streams an earlier release wrote and this one no longer does: their events stay in the history. */
const retiredStreamKinds = ['billingRun'] as const;

/** What a stream holds: the name of its builder in `streams`, or of a retired one. */
export type StreamKind = keyof typeof streams | (typeof retiredStreamKinds)[number];

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const DAY = '\\d{4}-\\d{2}-\\d{2}';
const named = (pattern: string) => new RegExp(`^${pattern}$`, 'i');

/** Each kind's names as its builder writes them, capturing what it was built from, in the builder's order. */
const streamNamePatterns: Record<StreamKind, RegExp> = {
  staff: named(`staff-(${UUID})`),
  facility: named(`facility-(${UUID})`),
  unit: named(`unit-(${UUID})`),
  customer: named(`customer-(${UUID})`),
  lease: named(`lease-(${UUID})`),
  invoice: named(`invoice-(${UUID})`),
  merchandise: named(`merchandise-(${UUID})`),
  lock: named(`lock-(${UUID})`),
  lockHeartbeats: named(`lock-heartbeats-(${UUID})`),
  reservation: named(`reservation-(${UUID})`),
  waitlistEntry: named(`waitlist-(${UUID})`),
  notification: named(`notification-(${UUID})`),
  notificationMarks: named(`notification-marks-(${UUID}|all)`),
  settings: named('settings-(.+)'),
  account: named(`account-(${UUID})`),
  billingDay: named(`billing-day-(${UUID}|none)-(${DAY})`),
  businessClock: named('business-clock'),
  delinquency: named(`delinquency-(${UUID})`),
  gateCode: named(`gate-code-(${UUID})`),
  accessLog: named(`access-log-(${UUID})-(${DAY})`),
  paymentProfile: named(`payment-profile-(${UUID})`),
  autopayCharges: named(`autopay-(${UUID})`),
  messageTemplate: named('message-template-(.+)'),
  uniqueKey: named(`unique-(${uniqueKeyKinds.join('|')})-(.+)`),
  billingRun: named(`billing-run-(${UUID})`),
};

export const streamKinds = Object.keys(streamNamePatterns) as StreamKind[];

/**
 * A stream's name read back: its kind and the values its builder was given (a facility given as
 * null reads as 'none' or 'all', as written); null for a name no builder of this release or an
 * earlier one writes. Reads shown names too (a gate code's claim without its code).
 */
export function readStreamName(streamName: string): { kind: StreamKind; parts: string[] } | null {
  for (const kind of streamKinds) {
    const match = streamNamePatterns[kind].exec(streamName);
    if (match) return { kind, parts: match.slice(1) };
  }
  return null;
}
