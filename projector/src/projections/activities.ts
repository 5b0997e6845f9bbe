import { activityTabOf } from '@storage/contracts/activities';
import { type ActivityType, paymentMethodLabels } from '@storage/contracts/enums';
import type { EventData, EventType } from '@storage/contracts/events';
import { formatDollars } from '@storage/contracts/money';
import { refundReasonWords } from '@storage/contracts/payments';
import { defineProjection, type ProjectedEvent } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';

// The activity feed: one entry per event a manager cares about, in words, with the ids the
// screens join on and the facility it belongs to (so the feed honours the facility scope).
// Runs after the other tables' projections, so the names it looks up are already there.

/** The events the feed describes (a case of another type does not compile). */
const handled = [
  'access_granted',
  'customer_added',
  'customer_archived',
  'customer_restored',
  'customer_updated',
  'invoice_cancelled',
  'invoice_generated',
  'invoice_overdue',
  'invoice_sent',
  'lease_ended',
  'lease_move_out_cancelled',
  'lease_move_out_scheduled',
  'lease_started',
  'lock_assigned',
  'lock_battery_low',
  'lock_installed',
  'lock_status_changed',
  'payment_received',
  'payment_refunded',
  'reservation_submitted',
  'unit_status_changed',
] as const satisfies readonly EventType[];
type Handled = (typeof handled)[number];

interface Activity {
  type: ActivityType;
  description: string;
  customerId?: string | null;
  unitId?: string | null;
  lockId?: string | null;
  invoiceId?: string | null;
  facilityId: string | null;
  metadata?: Record<string, unknown>;
}

interface InvoiceFacts {
  invoice_number: string;
  customer_id: string;
  amount: string;
  due_date: string;
  facility_id: string | null;
}

const customerFieldWords: Record<keyof EventData<'customer_updated'>['changes'], string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  phone: 'phone',
  address: 'address',
  emergencyContact: 'emergency contact',
  emergencyPhone: 'emergency phone',
  status: 'status',
  facilityId: 'facility',
};

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** Dec 15, 2026: a facility's date as the feed says it. */
const dayText = (date: string) => day.format(new Date(`${date}T00:00:00Z`));

async function customerOf(rows: ReadModelSession, customerId: string | null) {
  const customer = await rows.get('customers', customerId);
  return customer && { name: `${customer.first_name} ${customer.last_name}`, facility_id: customer.facility_id };
}
/** The invoice with its customer's facility: invoices follow their customer's facility scope. */
async function invoiceOf(rows: ReadModelSession, invoiceId: string): Promise<InvoiceFacts | null> {
  const invoice = await rows.get('invoices', invoiceId);
  if (!invoice) return null;
  const customer = await rows.get('customers', invoice.customer_id);
  return { ...invoice, facility_id: customer?.facility_id ?? null };
}
/** The unit a lock was on before it was taken off: the locks table has already forgotten it. */
async function previousUnitOf(rows: ReadModelSession, lockId: string) {
  const assignments = (await rows.find('activities', 'lock_id', lockId)).filter((a) => a.type === 'lock_assigned' && a.unit_id !== null);
  // The newest by when it happened; among equals, the one recorded last (find returns them in recorded order).
  const latest = assignments.reduce<(typeof assignments)[number] | undefined>(
    (newest, a) => (newest === undefined || Date.parse(a.created_at) >= Date.parse(newest.created_at) ? a : newest),
    undefined,
  );
  if (!latest) return undefined;
  const unitNumber = latest.metadata.unitNumber;
  return { unit_id: latest.unit_id, facility_id: latest.facility_id, unit_number: typeof unitNumber === 'string' ? unitNumber : null };
}

function invoiceActivity(type: ActivityType, description: (number: string, amount: string) => string, invoiceId: string, invoice: InvoiceFacts): Activity {
  return {
    type,
    description: description(invoice.invoice_number, formatDollars(invoice.amount)),
    customerId: invoice.customer_id,
    invoiceId,
    facilityId: invoice.facility_id,
    metadata: { invoiceNumber: invoice.invoice_number, amount: invoice.amount, dueDate: invoice.due_date },
  };
}

function describeCustomerChanges(name: string, changes: EventData<'customer_updated'>['changes']): string {
  const fields = Object.keys(changes) as Array<keyof typeof changes>;
  if (fields.length === 1 && changes.status) return `Customer ${name} marked ${changes.status}`;
  return `Customer ${name} updated (${fields.map((field) => customerFieldWords[field]).join(', ')})`;
}

async function describe(rows: ReadModelSession, event: ProjectedEvent<Handled>): Promise<Activity | null> {
  switch (event.type) {
    case 'customer_added': {
      const d = event.data;
      return {
        type: 'customer_added',
        description: `New customer ${d.firstName} ${d.lastName} added`,
        customerId: d.customerId,
        facilityId: d.facilityId,
        metadata: { email: d.email, phone: d.phone, status: d.status },
      };
    }
    case 'customer_updated': {
      const { customerId, changes } = event.data;
      const customer = await customerOf(rows, customerId);
      return {
        type: 'customer_updated',
        description: describeCustomerChanges(customer?.name ?? 'record', changes),
        customerId,
        facilityId: customer?.facility_id ?? null,
        metadata: {
          changedFields: Object.keys(changes)
            .map((field) => customerFieldWords[field as keyof typeof changes])
            .join(', '),
          status: changes.status,
        },
      };
    }
    case 'customer_archived': {
      const customer = await customerOf(rows, event.data.customerId);
      return {
        type: 'customer_archived',
        description: `Customer ${customer?.name ?? 'record'} archived`,
        customerId: event.data.customerId,
        facilityId: customer?.facility_id ?? null,
      };
    }
    case 'customer_restored': {
      const customer = await customerOf(rows, event.data.customerId);
      return {
        type: 'customer_restored',
        description: `Customer ${customer?.name ?? 'record'} restored`,
        customerId: event.data.customerId,
        facilityId: customer?.facility_id ?? null,
      };
    }
    case 'lease_started': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'lease_started',
        description: `Lease started for unit ${unit?.unit_number ?? 'unknown'}`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, monthlyRate: formatDollars(d.monthlyRate), startDate: d.startDate },
      };
    }
    case 'lease_ended': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'lease_ended',
        description: `Lease ended for unit ${unit?.unit_number ?? 'unknown'}`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, endDate: d.endDate },
      };
    }
    case 'lease_move_out_scheduled': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'lease_move_out_scheduled',
        description: `Move-out from unit ${unit?.unit_number ?? 'unknown'} scheduled for ${dayText(d.endDate)}`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, endDate: d.endDate },
      };
    }
    case 'lease_move_out_cancelled': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'lease_move_out_cancelled',
        description: `Move-out from unit ${unit?.unit_number ?? 'unknown'} on ${dayText(d.endDate)} cancelled`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, endDate: d.endDate, reason: d.reason },
      };
    }
    case 'invoice_generated': {
      const d = event.data;
      const customer = await customerOf(rows, d.customerId);
      return {
        type: 'invoice_generated',
        description: `Invoice ${d.invoiceNumber} generated for ${formatDollars(d.amount)}`,
        customerId: d.customerId,
        invoiceId: d.invoiceId,
        facilityId: customer?.facility_id ?? null,
        metadata: { invoiceNumber: d.invoiceNumber, amount: d.amount, dueDate: d.dueDate, description: d.description },
      };
    }
    case 'invoice_sent': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_sent', (number, amount) => `Invoice ${number} sent for ${amount}`, event.data.invoiceId, invoice);
    }
    case 'invoice_overdue': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_overdue', (number, amount) => `Invoice ${number} for ${amount} is overdue`, event.data.invoiceId, invoice);
    }
    case 'invoice_cancelled': {
      const invoice = await invoiceOf(rows, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_cancelled', (number, amount) => `Invoice ${number} for ${amount} cancelled`, event.data.invoiceId, invoice);
    }
    case 'payment_received': {
      const d = event.data;
      const [customer, invoice] = [await customerOf(rows, d.customerId), await invoiceOf(rows, d.invoiceId)];
      return {
        type: 'payment_received',
        description: `Payment of ${formatDollars(d.amount)} received${invoice ? ` for ${invoice.invoice_number}` : ''}`,
        customerId: d.customerId,
        invoiceId: d.invoiceId,
        facilityId: customer?.facility_id ?? null,
        metadata: { amount: d.amount, method: paymentMethodLabels[d.method], paidDate: d.paidDate, invoiceNumber: invoice?.invoice_number },
      };
    }
    case 'payment_refunded': {
      const d = event.data;
      const [customer, invoice] = [await customerOf(rows, d.customerId), await invoiceOf(rows, d.invoiceId)];
      return {
        type: 'payment_refunded',
        description: `Card payment of ${formatDollars(d.amount)} refunded${invoice ? ` for ${invoice.invoice_number}` : ''}: ${refundReasonWords[d.reason]}`,
        customerId: d.customerId,
        invoiceId: d.invoiceId,
        facilityId: customer?.facility_id ?? null,
        metadata: { amount: d.amount, reason: refundReasonWords[d.reason], invoiceNumber: invoice?.invoice_number },
      };
    }
    case 'lock_installed': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'lock_installed',
        description: `Smart lock ${d.serial} installed${unit ? ` on unit ${unit.unit_number}` : ''}`,
        lockId: d.lockId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { lockId: d.serial, batteryLevel: `${d.batteryLevel}%`, firmwareVersion: d.firmwareVersion },
      };
    }
    case 'lock_assigned': {
      const { lockId, unitId } = event.data;
      const lock = await rows.get('locks', lockId);
      if (unitId) {
        return {
          type: 'lock_assigned',
          description: `Smart lock ${lock?.lock_id ?? 'unknown'} assigned to unit ${lock?.unit_number ?? 'unknown'}`,
          lockId,
          unitId,
          facilityId: lock?.facility_id ?? null,
          metadata: { lockId: lock?.lock_id, unitNumber: lock?.unit_number },
        };
      }
      const previous = await previousUnitOf(rows, lockId);
      return {
        type: 'lock_assigned',
        description: `Smart lock ${lock?.lock_id ?? 'unknown'} removed${previous?.unit_number ? ` from unit ${previous.unit_number}` : ' from its unit'}`,
        lockId,
        facilityId: previous?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: previous?.unit_number },
      };
    }
    case 'lock_battery_low': {
      const lock = await rows.get('locks', event.data.lockId);
      return {
        type: 'lock_battery_low',
        description: `Smart lock ${lock?.lock_id ?? 'unknown'} battery low (${event.data.batteryLevel}%)`,
        lockId: event.data.lockId,
        unitId: lock?.unit_id ?? null,
        facilityId: lock?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: lock?.unit_number, batteryLevel: `${event.data.batteryLevel}%` },
      };
    }
    case 'lock_status_changed': {
      const lock = await rows.get('locks', event.data.lockId);
      const maintenance = event.data.status === 'maintenance';
      return {
        type: maintenance ? 'lock_maintenance' : 'lock_status_changed',
        description: `Smart lock ${lock?.lock_id ?? 'unknown'} ${maintenance ? 'put into maintenance' : `set to ${event.data.status.replace('_', ' ')}`}`,
        lockId: event.data.lockId,
        unitId: lock?.unit_id ?? null,
        facilityId: lock?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: lock?.unit_number, status: event.data.status.replace('_', ' ') },
      };
    }
    case 'unit_status_changed': {
      if (event.data.status !== 'maintenance') return null;
      const unit = await rows.get('units', event.data.unitId);
      return {
        type: 'unit_maintenance',
        description: `Unit ${unit?.unit_number ?? 'unknown'} put into maintenance`,
        unitId: event.data.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, reason: event.data.reason },
      };
    }
    case 'access_granted': {
      const d = event.data;
      const lock = await rows.get('locks', d.lockId);
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'access_granted',
        description: `Access granted at unit ${unit?.unit_number ?? 'unknown'}`,
        customerId: d.customerId,
        unitId: d.unitId,
        lockId: d.lockId,
        facilityId: unit?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: unit?.unit_number, method: d.method.replace(/_/g, ' ') },
      };
    }
    case 'reservation_submitted': {
      const d = event.data;
      const unit = await rows.get('units', d.unitId);
      return {
        type: 'reservation_submitted',
        description: `Reservation submitted for unit ${unit?.unit_number ?? 'unknown'}`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, moveInDate: d.moveInDate, specialRequests: d.specialRequests },
      };
    }
    default:
      return null;
  }
}

/** What the feed's search box matches: the description and the customer's name and email, lower-cased. */
async function searchText(rows: ReadModelSession, description: string, customerId: string | null): Promise<string> {
  const customer = await rows.get('customers', customerId);
  return [description, ...(customer ? [`${customer.first_name} ${customer.last_name} ${customer.email}`] : [])].join(' ').toLowerCase();
}

export const activitiesProjection = defineProjection({
  name: 'activities',
  tables: ['activities', 'activity_days'],
  reads: ['customers', 'units', 'locks', 'invoices'],
  canHandle: handled,
  async apply(rows, event) {
    if (event.type === 'customer_updated' && ['firstName', 'lastName', 'email'].some((field) => field in event.data.changes)) {
      for (const activity of await rows.find('activities', 'customer_id', event.data.customerId)) {
        await rows.update('activities', activity.id, { search_text: await searchText(rows, activity.description, activity.customer_id) });
      }
    }
    const activity = await describe(rows, event);
    if (!activity) return;
    const customerId = activity.customerId ?? null;
    rows.insert('activities', {
      id: event.id,
      type: activity.type,
      tab: activityTabOf(activity.type),
      description: activity.description,
      customer_id: customerId,
      unit_id: activity.unitId ?? null,
      lock_id: activity.lockId ?? null,
      invoice_id: activity.invoiceId ?? null,
      user_id: event.metadata.actor.type === 'staff' ? event.metadata.actor.id : null,
      facility_id: activity.facilityId,
      metadata: JSON.parse(JSON.stringify(activity.metadata ?? {})) as Record<string, unknown>,
      search_text: await searchText(rows, activity.description, customerId),
      created_at: event.metadata.occurredAt,
    });
    // One entry per event, never removed and never moved in time: one more on its UTC day (migration 043).
    rows.count('activity_days', { day: `${new Date(event.metadata.occurredAt).toISOString().slice(0, 10)}T00:00:00Z` }, { entries: 1 });
  },
});
