import { formatDollars } from '@storage/contracts/money';
import { sql, type DatabaseTransactionConnection } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent, Projection } from '../projection.ts';

// The activity feed: one entry per event a manager cares about, in words, with the ids the
// screens join on and the facility it belongs to (so the feed honours the facility scope).

interface Activity {
  type: string;
  description: string;
  customerId?: string | null;
  unitId?: string | null;
  lockId?: string | null;
  invoiceId?: string | null;
  facilityId?: string | null;
  metadata?: Record<string, unknown>;
}

const UnitRow = z.object({ unit_number: z.string(), facility_id: z.string().nullable() });
const CustomerRow = z.object({ name: z.string(), facility_id: z.string().nullable() });
const LockRow = z.object({ lock_id: z.string(), unit_id: z.string().nullable() });
const InvoiceRow = z.object({ invoice_number: z.string(), customer_id: z.string() });

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
  return tx.maybeOne(sql.type(LockRow)`SELECT lock_id, unit_id::text FROM locks WHERE id = ${lockId}`);
}
async function invoiceOf(tx: DatabaseTransactionConnection, invoiceId: string) {
  return tx.maybeOne(sql.type(InvoiceRow)`SELECT invoice_number, customer_id::text FROM invoices WHERE id = ${invoiceId}`);
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
      const customer = await customerOf(tx, event.data.customerId);
      return {
        type: 'customer_updated',
        description: `Customer ${customer?.name ?? ''} updated`.replace('  ', ' '),
        customerId: event.data.customerId,
        facilityId: customer?.facility_id ?? null,
        metadata: { changedFields: Object.keys(event.data.changes).join(', ') },
      };
    }
    case 'lease_started': {
      const d = event.data;
      const unit = await unitOf(tx, d.unitId);
      return {
        type: 'lease_started',
        description: `Lease started for unit ${unit?.unit_number ?? ''}`.trim(),
        customerId: d.customerId,
        unitId: d.unitId,
        facilityId: unit?.facility_id ?? null,
        metadata: { unitNumber: unit?.unit_number, monthlyRate: d.monthlyRate, startDate: d.startDate },
      };
    }
    case 'lease_ended': {
      const d = event.data;
      const unit = await unitOf(tx, d.unitId);
      return {
        type: 'lease_ended',
        description: `Lease ended for unit ${unit?.unit_number ?? ''}`.trim(),
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
        metadata: { invoiceNumber: d.invoiceNumber, amount: d.amount, dueDate: d.dueDate },
      };
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
        metadata: { amount: d.amount, method: d.method, paidDate: d.paidDate, invoiceNumber: invoice?.invoice_number },
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
        metadata: { lockId: d.serial, batteryLevel: d.batteryLevel, firmwareVersion: d.firmwareVersion },
      };
    }
    case 'lock_battery_low': {
      const lock = await lockOf(tx, event.data.lockId);
      const unit = await unitOf(tx, lock?.unit_id ?? null);
      return {
        type: 'lock_battery_low',
        description: `Smart lock ${lock?.lock_id ?? ''} battery low (${event.data.batteryLevel}%)`,
        lockId: event.data.lockId,
        unitId: lock?.unit_id ?? null,
        facilityId: unit?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, batteryLevel: event.data.batteryLevel },
      };
    }
    case 'lock_status_changed': {
      const lock = await lockOf(tx, event.data.lockId);
      const unit = await unitOf(tx, lock?.unit_id ?? null);
      const maintenance = event.data.status === 'maintenance';
      return {
        type: maintenance ? 'lock_maintenance' : 'lock_status_changed',
        description: `Smart lock ${lock?.lock_id ?? ''} ${maintenance ? 'put into maintenance' : `set to ${event.data.status.replace('_', ' ')}`}`,
        lockId: event.data.lockId,
        unitId: lock?.unit_id ?? null,
        facilityId: unit?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, status: event.data.status },
      };
    }
    case 'unit_status_changed': {
      if (event.data.status !== 'maintenance') return null;
      const unit = await unitOf(tx, event.data.unitId);
      return {
        type: 'unit_maintenance',
        description: `Unit ${unit?.unit_number ?? ''} put into maintenance`,
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
        description: `Access granted at unit ${unit?.unit_number ?? ''}`.trim(),
        customerId: d.customerId,
        unitId: d.unitId,
        lockId: d.lockId,
        facilityId: unit?.facility_id ?? null,
        metadata: { lockId: lock?.lock_id, unitNumber: unit?.unit_number, method: d.method },
      };
    }
    case 'reservation_submitted': {
      const d = event.data;
      const unit = await unitOf(tx, d.unitId);
      return {
        type: 'reservation_submitted',
        description: `Reservation submitted for unit ${unit?.unit_number ?? ''}`.trim(),
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

export const activitiesProjection: Projection = {
  name: 'activities',
  tables: ['activities'],
  async apply(tx, event) {
    const activity = await describe(tx, event);
    if (!activity) return;
    const actorId = event.metadata.actor.type === 'staff' ? event.metadata.actor.id : null;
    await tx.query(sql.unsafe`
      INSERT INTO activities (id, type, description, customer_id, unit_id, lock_id, invoice_id, user_id, facility_id, metadata, created_at)
      VALUES (${event.id}, ${activity.type}, ${activity.description}, ${activity.customerId ?? null}, ${activity.unitId ?? null},
              ${activity.lockId ?? null}, ${activity.invoiceId ?? null}, ${actorId}, ${activity.facilityId ?? null},
              ${sql.jsonb(JSON.parse(JSON.stringify(activity.metadata ?? {})))}, ${event.metadata.occurredAt})
      ON CONFLICT (id) DO NOTHING`);
  },
};
