import { z } from 'zod';
import { customerStatuses } from './enum-values.ts';

export const unitSizes = ['5x5', '5x10', '5x15', '10x10', '10x15', '10x20', '10x25', '15x20', '20x20', '20x30'] as const;
export const UnitSize = z.enum(unitSizes);
export type UnitSize = z.infer<typeof UnitSize>;

/** The sizes the unit form offers, with their labels, in the spec's order. */
export const unitFormSizes: ReadonlyArray<{ value: UnitSize; label: string }> = [
  { value: '5x5', label: 'Small' },
  { value: '5x10', label: 'Small' },
  { value: '10x10', label: 'Standard' },
  { value: '10x15', label: 'Medium' },
  { value: '10x20', label: 'Large' },
  { value: '15x20', label: 'Large' },
  { value: '20x20', label: 'Extra Large' },
];

export const UnitStatus = z.enum(['available', 'occupied', 'maintenance', 'reserved']);
export type UnitStatus = z.infer<typeof UnitStatus>;

/** A unit's status in the screens' words. */
export const unitStatusLabels: Record<UnitStatus, string> = { available: 'Available', occupied: 'Occupied', maintenance: 'Maintenance', reserved: 'Reserved' };

export const CustomerStatus = z.enum(customerStatuses);
export type CustomerStatus = z.infer<typeof CustomerStatus>;

export const LockStatus = z.enum(['active', 'inactive', 'maintenance', 'low_battery']);
export type LockStatus = z.infer<typeof LockStatus>;

/** written_off: what was still owed became bad debt (the invoice is closed, its payments stand). */
export const InvoiceStatus = z.enum(['draft', 'sent', 'paid', 'overdue', 'cancelled', 'written_off']);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

/** An invoice's status in the screens' words. */
export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
  written_off: 'Written off',
};

export const PaymentStatus = z.enum(['pending', 'completed', 'failed', 'refunded']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** card: online; card_present: a card at the desk; account_credit: the renter's credit (an overpayment, a credit staff gave) paying an invoice. */
export const PaymentMethod = z.enum(['card', 'card_present', 'bank_transfer', 'cash', 'check', 'account_credit']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  card: 'Card',
  card_present: 'Card at the desk',
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Check',
  account_credit: 'Account credit',
};

/** How staff take a payment at the desk. */
export const DeskPaymentMethod = z.enum(['cash', 'check', 'card_present', 'bank_transfer']);
export type DeskPaymentMethod = z.infer<typeof DeskPaymentMethod>;

export const StaffRole = z.enum(['owner', 'manager', 'clerk', 'auditor']);
export type StaffRole = z.infer<typeof StaffRole>;

export const activityTypes = [
  'customer_added',
  'customer_updated',
  'lease_started',
  'lease_ended',
  'payment_received',
  'invoice_generated',
  'lock_installed',
  'lock_battery_low',
  'lock_maintenance',
  'unit_maintenance',
  'reservation_submitted',
  'access_granted',
  'lock_status_changed',
  'other',
  // The feed also tells these events a manager follows.
  'customer_archived',
  'customer_restored',
  'invoice_sent',
  'invoice_overdue',
  'invoice_cancelled',
  'lock_assigned',
  'payment_refunded',
  'lease_move_out_scheduled',
  'lease_move_out_cancelled',
] as const;
export const ActivityType = z.enum(activityTypes);
export type ActivityType = z.infer<typeof ActivityType>;

export const NotificationType = z.enum([
  'payment_overdue',
  'unit_assigned',
  'lock_battery_low',
  'reservation_submitted',
  'customer_added',
  'payment_received',
  'payment_refunded',
  // issue 13: the renter's delinquency and autopay (the same events tell the renter)
  'renter_locked_out',
  'pre_lien_notice',
  'autopay_failed',
  'access_restored',
  'other',
]);
export type NotificationType = z.infer<typeof NotificationType>;

// --- Issue 13: delinquency, access, autopay, messages ---

/** A step of the delinquency schedule (the late fee is the billing settings' own, before these). */
export const DelinquencyStepKind = z.enum(['late_notice', 'lockout', 'pre_lien_notice', 'lien', 'auction_scheduled']);
export type DelinquencyStepKind = z.infer<typeof DelinquencyStepKind>;

export const delinquencyStepLabels: Record<DelinquencyStepKind, string> = {
  late_notice: 'Late Notice',
  lockout: 'Lockout',
  pre_lien_notice: 'Pre-Lien Notice',
  lien: 'Lien',
  auction_scheduled: 'Auction Scheduled',
};

/** What a lock should be: open to its renter (normal), or overlocked (a lockout). */
export const LockDesiredState = z.enum(['normal', 'overlocked']);
export type LockDesiredState = z.infer<typeof LockDesiredState>;

/** The messages the product writes to renters, each a template an owner can edit. */
export const MessageTemplateKey = z.enum([
  'reservation_confirmed',
  'move_in_welcome',
  'invoice_issued',
  'payment_receipt',
  'autopay_failed',
  'late_notice',
  'lockout_notice',
  'pre_lien_notice',
  'access_restored',
  'rent_change_notice',
  'protection_enrolled',
]);
export type MessageTemplateKey = z.infer<typeof MessageTemplateKey>;
