import type { EventData } from '@storage/contracts/events';
import type { ActivityType } from '@storage/contracts/enums';
import { formatDollars } from '@storage/contracts/money';
import { sql, type DatabaseTransactionConnection, type FragmentSqlToken } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent, Projection } from '../projection.ts';

// The activity feed: one entry per event a manager cares about, in words, with the ids the
// screens join on and the facility it belongs to (so the feed honours the facility scope).
// Runs after the other tables' projections, so the names it looks up are already there.

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

const UnitRow = z.object({ unit_number: z.string(), facility_id: z.string().nullable() });
const CustomerRow = z.object({ name: z.string(), facility_id: z.string().nullable() });
const LockRow = z.object({ lock_id: z.string(), unit_id: z.string().nullable(), unit_number: z.string().nullable(), facility_id: z.string().nullable() });
const InvoiceRow = z.object({
  invoice_number: z.string(),
  customer_id: z.string(),
  amount: z.string(),
  due_date: z.string(),
  facility_id: z.string().nullable(),
});
const PreviousUnitRow = z.object({ unit_id: z.string(), facility_id: z.string().nullable(), unit_number: z.string().nullable() });

const paymentMethodWords: Record<EventData<'payment_received'>['method'], string> = {
  card: 'Card',
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Check',
};

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

async function unitOf(tx: DatabaseTransactionConnection, unitId: string | null) {
  if (!unitId) return null;
  return tx.maybeOne(sql.type(UnitRow)`SELECT unit_number, facility_id::text FROM units WHERE id = ${unitId}`);
}
async function customerOf(tx: DatabaseTransactionConnection, customerId: string | null) {
  if (!customerId) return null;
  return tx.maybeOne(
    sql.type(CustomerRow)`SELECT first_name || ' ' || last_name AS name, facility_id::text FROM customers WHERE id = ${customerId}`,
  );
}
async function lockOf(tx: DatabaseTransactionConnection, lockId: string) {
  return tx.maybeOne(
    sql.type(LockRow)`SELECT lock_id, unit_id::text, unit_number, facility_id::text FROM locks WHERE id = ${lockId}`,
  );
}
/** The invoice with its customer's facility: invoices follow their customer's facility scope. */
async function invoiceOf(tx: DatabaseTransactionConnection, invoiceId: string) {
  return tx.maybeOne(sql.type(InvoiceRow)`
    SELECT i.invoice_number, i.customer_id::text, i.amount::text, i.due_date::text, c.facility_id::text
    FROM invoices i LEFT JOIN customers c ON c.id = i.customer_id WHERE i.id = ${invoiceId}`);
}
/** The unit a lock was on before it was taken off: the locks table has already forgotten it. */
async function previousUnitOf(tx: DatabaseTransactionConnection, lockId: string) {
  return tx.maybeOne(sql.type(PreviousUnitRow)`
    SELECT unit_id::text, facility_id::text, metadata->>'unitNumber' AS unit_number FROM activities
    WHERE lock_id = ${lockId} AND type = 'lock_assigned' AND unit_id IS NOT NULL
    ORDER BY created_at DESC, recorded_order DESC LIMIT 1`);
}

function invoiceActivity(
  type: ActivityType,
  description: (number: string, amount: string) => string,
  invoiceId: string,
  invoice: z.infer<typeof InvoiceRow>,
): Activity {
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

async function describe(tx: DatabaseTransactionConnection, event: ProjectedEvent): Promise<Activity | null> {
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
      const customer = await customerOf(tx, customerId);
      return {
        type: 'customer_updated',
        description: describeCustomerChanges(customer?.name ?? 'record', changes),
        customerId,
        facilityId: customer?.facility_id ?? null,
        metadata: { changedFields: Object.keys(changes).map((field) => customerFieldWords[field as keyof typeof changes]).join(', '), status: changes.status },
      };
    }
    case 'customer_archived': {
      const customer = await customerOf(tx, event.data.customerId);
      return {
        type: 'customer_archived',
        description: `Customer ${customer?.name ?? 'record'} archived`,
        customerId: event.data.customerId,
        facilityId: customer?.facility_id ?? null,
      };
    }
    case 'lease_started': {
      const d = event.data;
      const unit = await unitOf(tx, d.unitId);
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
      const unit = await unitOf(tx, d.unitId);
      return {
        type: 'lease_ended',
        description: `Lease ended for unit ${unit?.unit_number ?? 'unknown'}`,
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, endDate: d.endDate },
      };
    }
    case 'invoice_generated': {
      const d = event.data;
      const customer = await customerOf(tx, d.customerId);
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
      const invoice = await invoiceOf(tx, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_sent', (number, amount) => `Invoice ${number} sent for ${amount}`, event.data.invoiceId, invoice);
    }
    case 'invoice_overdue': {
      const invoice = await invoiceOf(tx, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_overdue', (number, amount) => `Invoice ${number} for ${amount} is overdue`, event.data.invoiceId, invoice);
    }
    case 'invoice_cancelled': {
      const invoice = await invoiceOf(tx, event.data.invoiceId);
      return invoice && invoiceActivity('invoice_cancelled', (number, amount) => `Invoice ${number} for ${amount} cancelled`, event.data.invoiceId, invoice);
    }
    case 'payment_received': {
      const d = event.data;
      const [customer, invoice] = [await customerOf(tx, d.customerId), await invoiceOf(tx, d.invoiceId)];
      return {
        type: 'payment_received',
        description: `Payment of ${formatDollars(d.amount)} received${invoice ? ` for ${invoice.invoice_number}` : ''}`,
        customerId: d.customerId,
        invoiceId: d.invoiceId,
        facilityId: customer?.facility_id ?? null,
        metadata: { amount: d.amount, method: paymentMethodWords[d.method], paidDate: d.paidDate, invoiceNumber: invoice?.invoice_number },
      };
    }
    case 'lock_installed': {
      const d = event.data;
      const unit = await unitOf(tx, d.unitId);
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
      const lock = await lockOf(tx, lockId);
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
      const previous = await previousUnitOf(tx, lockId);
      return {
        type: 'lock_assigned',
        description: `Smart lock ${lock?.lock_id ?? 'unknown'} removed${previous?.unit_number ? ` from unit ${previous.unit_number}` : ' from its unit'}`,
        lockId,
        facilityId: previous?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: previous?.unit_number },
      };
    }
    case 'lock_battery_low': {
      const lock = await lockOf(tx, event.data.lockId);
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
      const lock = await lockOf(tx, event.data.lockId);
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
      const unit = await unitOf(tx, event.data.unitId);
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
      const lock = await lockOf(tx, d.lockId);
      const unit = await unitOf(tx, d.unitId);
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
      const unit = await unitOf(tx, d.unitId);
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
const searchTextOf = (description: FragmentSqlToken, customerId: FragmentSqlToken) => sql.fragment`
  lower(concat_ws(' ', ${description}, (SELECT c.first_name || ' ' || c.last_name || ' ' || c.email FROM customers c WHERE c.id = ${customerId})))`;

export const activitiesProjection: Projection = {
  name: 'activities',
  tables: ['activities'],
  async apply(tx, event) {
    if (event.type === 'customer_updated' && ['firstName', 'lastName', 'email'].some((field) => field in event.data.changes)) {
      await tx.query(sql.unsafe`
        UPDATE activities SET search_text = ${searchTextOf(sql.fragment`activities.description`, sql.fragment`activities.customer_id`)}
        WHERE customer_id = ${event.data.customerId}`);
    }
    const activity = await describe(tx, event);
    if (!activity) return;
    const actorId = event.metadata.actor.type === 'staff' ? event.metadata.actor.id : null;
    const customerId = activity.customerId ?? null;
    await tx.query(sql.unsafe`
      INSERT INTO activities (id, type, description, customer_id, unit_id, lock_id, invoice_id, user_id, facility_id, metadata, search_text, created_at)
      VALUES (${event.id}, ${activity.type}, ${activity.description}, ${customerId}, ${activity.unitId ?? null},
              ${activity.lockId ?? null}, ${activity.invoiceId ?? null}, ${actorId}, ${activity.facilityId},
              ${sql.jsonb(JSON.parse(JSON.stringify(activity.metadata ?? {})))},
              ${searchTextOf(sql.fragment`${activity.description}::text`, sql.fragment`${customerId}::uuid`)}, ${event.metadata.occurredAt})
      ON CONFLICT (id) DO NOTHING`);
  },
};
