import type { NotificationType } from '@storage/contracts/enums';
import type { EventType } from '@storage/contracts/events';
import { formatDollars } from '@storage/contracts/money';
import { BUSINESS_SETTINGS_SCOPE, type NotificationPreferences } from '@storage/contracts/settings';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent, Projection } from '../projection.ts';
import { notificationPreferencesOf } from './settings.ts';

// Staff notifications raised by events. A notification's id is its source event's id, so
// replaying the history raises each one once. The alert toggles in Settings decide, as they
// stood when the event happened, whether its notification is raised at all.

interface Notification {
  type: NotificationType;
  title: string;
  message: string;
  facilityId: string | null;
}

const InvoiceRow = z.object({ invoice_number: z.string(), amount: z.string(), name: z.string(), facility_id: z.string().nullable() });
const UnitRow = z.object({ unit_number: z.string(), facility_id: z.string().nullable() });
const LockRow = z.object({ lock_id: z.string(), unit_number: z.string().nullable(), facility_id: z.string().nullable() });
const CustomerRow = z.object({ name: z.string() });

/** The toggle that governs each event's notification; an event not listed here always notifies. */
const governingToggle: Partial<Record<EventType, keyof NotificationPreferences>> = {
  invoice_overdue: 'overduePaymentAlerts',
  lock_battery_low: 'lowBatteryAlerts',
  customer_added: 'newCustomerAlerts',
  reservation_submitted: 'newCustomerAlerts',
};

async function isSwitchedOff(tx: DatabaseTransactionConnection, event: ProjectedEvent): Promise<boolean> {
  const toggle = governingToggle[event.type];
  if (!toggle) return false;
  const preferences = await notificationPreferencesOf(tx, BUSINESS_SETTINGS_SCOPE);
  return !preferences[toggle];
}

function invoiceOf(tx: DatabaseTransactionConnection, invoiceId: string) {
  return tx.maybeOne(sql.type(InvoiceRow)`
    SELECT i.invoice_number, i.amount::text, c.first_name || ' ' || c.last_name AS name, c.facility_id::text
    FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = ${invoiceId}`);
}

async function compose(tx: DatabaseTransactionConnection, event: ProjectedEvent): Promise<Notification | null> {
  switch (event.type) {
    case 'invoice_overdue': {
      const invoice = await invoiceOf(tx, event.data.invoiceId);
      if (!invoice) return null;
      return {
        type: 'payment_overdue',
        title: 'Payment overdue',
        message: `${invoice.name}: invoice ${invoice.invoice_number} (${formatDollars(invoice.amount)}) is past due`,
        facilityId: invoice.facility_id,
      };
    }
    case 'payment_received': {
      const invoice = await invoiceOf(tx, event.data.invoiceId);
      if (!invoice) return null;
      return {
        type: 'payment_received',
        title: 'Payment received',
        message: `${invoice.name} paid invoice ${invoice.invoice_number} (${formatDollars(event.data.amount)})`,
        facilityId: invoice.facility_id,
      };
    }
    case 'lease_started': {
      const unit = await tx.maybeOne(sql.type(UnitRow)`SELECT unit_number, facility_id::text FROM units WHERE id = ${event.data.unitId}`);
      const customer = await tx.maybeOne(
        sql.type(CustomerRow)`SELECT first_name || ' ' || last_name AS name FROM customers WHERE id = ${event.data.customerId}`,
      );
      return {
        type: 'unit_assigned',
        title: 'Unit assigned',
        message: `Unit ${unit?.unit_number ?? ''} assigned to ${customer?.name ?? 'a customer'}`,
        facilityId: unit?.facility_id ?? null,
      };
    }
    case 'lock_battery_low': {
      const lock = await tx.maybeOne(sql.type(LockRow)`
        SELECT l.lock_id, u.unit_number, u.facility_id::text FROM locks l LEFT JOIN units u ON u.id = l.unit_id
        WHERE l.id = ${event.data.lockId}`);
      return {
        type: 'lock_battery_low',
        title: 'Lock battery low',
        message: `Lock ${lock?.lock_id ?? ''}${lock?.unit_number ? ` on unit ${lock.unit_number}` : ''} is at ${event.data.batteryLevel}%`,
        facilityId: lock?.facility_id ?? null,
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
      const unit = await tx.maybeOne(sql.type(UnitRow)`SELECT unit_number, facility_id::text FROM units WHERE id = ${event.data.unitId}`);
      return {
        type: 'reservation_submitted',
        title: 'New reservation',
        message: `Unit ${unit?.unit_number ?? ''} reserved, move-in ${event.data.moveInDate}`,
        facilityId: unit?.facility_id ?? null,
      };
    }
    default:
      return null;
  }
}

export const notificationsProjection: Projection = {
  name: 'notifications',
  tables: ['notifications'],
  async apply(tx, event) {
    if (event.type === 'notification_read') {
      await tx.query(sql.unsafe`UPDATE notifications SET read = true WHERE id = ${event.data.notificationId}`);
      return;
    }
    if (await isSwitchedOff(tx, event)) return;
    const n = await compose(tx, event);
    if (!n) return;
    await tx.query(sql.unsafe`
      INSERT INTO notifications (id, type, title, message, facility_id, created_at)
      VALUES (${event.id}, ${n.type}, ${n.title}, ${n.message}, ${n.facilityId}, ${event.metadata.occurredAt})
      ON CONFLICT (id) DO NOTHING`);
  },
};
