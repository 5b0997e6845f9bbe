import { dayInWords } from '@storage/contracts/day-words';
import type { NotificationType } from '@storage/contracts/enums';
import type { EventType } from '@storage/contracts/events';
import { formatDollars, fromCents, toCents } from '@storage/contracts/money';
import { refundReasonWords } from '@storage/contracts/payments';
import { BUSINESS_SETTINGS_SCOPE, type NotificationPreferences } from '@storage/contracts/settings';
import { defineProjection, type ProjectedEvent } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import { notificationPreferencesOf } from './settings.ts';

// Staff notifications raised by events. A notification's id is its source event's id, so
// replaying the history raises each one once. The alert toggles in Settings decide, as they
// stood when the event happened, whether its notification is raised at all.

/** The events that raise or mark notifications (a case of another type does not compile). */
const handled = [
  'autopay_charge_failed',
  'customer_added',
  'delinquency_step_taken',
  'gate_code_reinstated',
  'invoice_overdue',
  'lease_started',
  'lock_battery_low',
  'notification_read',
  'notifications_marked_read',
  'payment_received',
  'payment_refunded',
  'reservation_submitted',
] as const satisfies readonly EventType[];
type Handled = (typeof handled)[number];

interface Notification {
  type: NotificationType;
  title: string;
  message: string;
  facilityId: string | null;
}

/** The toggle that governs each event's notification; an event not listed here always notifies. */
const governingToggle: Partial<Record<EventType, keyof NotificationPreferences>> = {
  invoice_overdue: 'overduePaymentAlerts',
  lock_battery_low: 'lowBatteryAlerts',
  customer_added: 'newCustomerAlerts',
  reservation_submitted: 'newCustomerAlerts',
  // issue 13: a renter's delinquency and autopay follow the overdue-payment alerts
  delinquency_step_taken: 'overduePaymentAlerts',
  autopay_charge_failed: 'overduePaymentAlerts',
  gate_code_reinstated: 'overduePaymentAlerts',
};

async function customerName(rows: ReadModelSession, customerId: string) {
  const customer = await rows.get('customers', customerId);
  return { name: customer ? `${customer.first_name} ${customer.last_name}` : 'A renter', facilityId: customer?.facility_id ?? null };
}

async function isSwitchedOff(rows: ReadModelSession, event: ProjectedEvent<Handled>): Promise<boolean> {
  const toggle = governingToggle[event.type];
  if (!toggle) return false;
  const preferences = await notificationPreferencesOf(rows, BUSINESS_SETTINGS_SCOPE);
  return !preferences[toggle];
}

/** The invoice with its customer's name and facility, or null when either is missing. */
async function invoiceOf(rows: ReadModelSession, invoiceId: string) {
  const invoice = await rows.get('invoices', invoiceId);
  const customer = await rows.get('customers', invoice?.customer_id);
  if (!invoice || !customer) return null;
  return { ...invoice, name: `${customer.first_name} ${customer.last_name}`, facility_id: customer.facility_id };
}

/** The bell's words for an invoice past due: what is still owed on it, and of what when part was paid. */
export function overdueMessage(name: string, invoiceNumber: string, amount: string, paid: string): string {
  const owed = fromCents(toCents(amount) - toCents(paid));
  const what = owed === amount ? formatDollars(amount) : `${formatDollars(owed)} of ${formatDollars(amount)}`;
  return `${name}: invoice ${invoiceNumber} is past due, ${what} owed`;
}

async function compose(rows: ReadModelSession, event: ProjectedEvent<Handled>): Promise<Notification | null> {
  switch (event.type) {
    case 'invoice_overdue': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      if (!invoice) return null;
      return {
        type: 'payment_overdue',
        title: 'Payment overdue',
        message: overdueMessage(invoice.name, invoice.invoice_number, invoice.amount, invoice.amount_paid),
        facilityId: invoice.facility_id,
      };
    }
    case 'payment_received': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      if (!invoice) return null;
      return {
        type: 'payment_received',
        title: 'Payment received',
        message: `${invoice.name} paid invoice ${invoice.invoice_number} (${formatDollars(event.data.amount)})`,
        facilityId: invoice.facility_id,
      };
    }
    case 'payment_refunded': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      if (!invoice) return null;
      return {
        type: 'payment_refunded',
        title: 'Payment refunded',
        message: `${invoice.name}: a card payment of ${formatDollars(event.data.amount)} for invoice ${invoice.invoice_number} was refunded (${refundReasonWords[event.data.reason]})`,
        facilityId: invoice.facility_id,
      };
    }
    case 'lease_started': {
      const unit = await rows.get('units', event.data.unitId);
      const customer = await rows.get('customers', event.data.customerId);
      return {
        type: 'unit_assigned',
        title: 'Unit assigned',
        message: `Unit ${unit?.unit_number ?? ''} assigned to ${customer ? `${customer.first_name} ${customer.last_name}` : 'a customer'}`,
        facilityId: unit?.facility_id ?? null,
      };
    }
    case 'lock_battery_low': {
      const lock = await rows.get('locks', event.data.lockId);
      const unit = await rows.get('units', lock?.unit_id);
      return {
        type: 'lock_battery_low',
        title: 'Lock battery low',
        message: `Lock ${lock?.lock_id ?? ''}${unit ? ` on unit ${unit.unit_number}` : ''} is at ${event.data.batteryLevel}%`,
        facilityId: unit?.facility_id ?? null,
      };
    }
    case 'customer_added': {
      const d = event.data;
      return {
        type: 'customer_added',
        title: 'New customer',
        message: `${d.firstName} ${d.lastName} (${d.email}) was added`,
        facilityId: d.facilityId,
      };
    }
    case 'reservation_submitted': {
      const unit = await rows.get('units', event.data.unitId);
      return {
        type: 'reservation_submitted',
        title: 'New reservation',
        message: `Unit ${unit?.unit_number ?? ''} reserved, move-in ${dayInWords(event.data.moveInDate)}`,
        facilityId: unit?.facility_id ?? null,
      };
    }
    case 'delinquency_step_taken': {
      const d = event.data;
      if (d.kind !== 'lockout' && d.kind !== 'pre_lien_notice') return null;
      const { name, facilityId } = await customerName(rows, d.customerId);
      return d.kind === 'lockout'
        ? { type: 'renter_locked_out', title: 'Renter locked out', message: `${name} is locked out: ${formatDollars(d.pastDue)} past due`, facilityId }
        : { type: 'pre_lien_notice', title: 'Pre-lien notice sent', message: `${name}: pre-lien notice for ${formatDollars(d.pastDue)} past due`, facilityId };
    }
    case 'autopay_charge_failed': {
      const d = event.data;
      if (d.nextAttemptOn !== null && !d.requiresAction) return null;
      const { name, facilityId } = await customerName(rows, d.customerId);
      const why = d.requiresAction ? 'the card needs the renter to confirm' : 'the last attempt failed';
      return {
        type: 'autopay_failed',
        title: 'Autopay failed',
        message: `${name}: automatic payment of ${formatDollars(d.amount)} failed (${why})`,
        facilityId,
      };
    }
    case 'gate_code_reinstated': {
      const lease = await rows.get('leases', event.data.leaseId);
      const unit = await rows.get('units', lease?.unit_id);
      const { name, facilityId } = await customerName(rows, event.data.customerId);
      return {
        type: 'access_restored',
        title: 'Access restored',
        message: `${name}: access restored${unit ? ` to unit ${unit.unit_number}` : ''}`,
        facilityId: unit?.facility_id ?? facilityId,
      };
    }
    default:
      return null;
  }
}

export const notificationsProjection = defineProjection({
  name: 'notifications',
  tables: ['notifications', 'notification_read_marks'],
  reads: ['settings', 'invoices', 'customers', 'units', 'locks', 'leases'],
  canHandle: handled,
  // The alert toggles, read for every event a toggle governs (isSwitchedOff).
  readsRows: (type) => (governingToggle[type] ? [['settings', BUSINESS_SETTINGS_SCOPE]] : []),
  async apply(rows, event) {
    if (event.type === 'notification_read') {
      await rows.update('notifications', event.data.notificationId, { read: true });
      return;
    }
    if (event.type === 'notifications_marked_read') {
      rows.insert('notification_read_marks', { scope: event.data.facilityId ?? 'all', read_before: event.metadata.occurredAt });
      return;
    }
    if (await isSwitchedOff(rows, event)) return;
    const n = await compose(rows, event);
    if (!n) return;
    rows.insert('notifications', {
      id: event.id,
      type: n.type,
      title: n.title,
      message: n.message,
      read: false,
      facility_id: n.facilityId,
      created_at: event.metadata.occurredAt,
    });
  },
});
