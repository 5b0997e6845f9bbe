// Writes a small history through the API's own command functions at chosen moments, so that a
// test knows every figure it then reads.

import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import { startLease } from '@storage/domain/leases/commands';
import { addUnit } from '@storage/domain/units/commands';
import { comparePositions, type EventStore, type Position } from '@storage/eventstore/port';
import type { TestPlatform } from '@storage/testing/platform';

export function historyWriter(platform: TestPlatform) {
  // Remembers where the last append landed: the store's head may not show an append yet while
  // another database of the machine's PostgreSQL holds a transaction open.
  let written: Position | null = null;
  const store = new Proxy(platform.api.store, {
    get(target, property) {
      if (property === 'append') {
        return async (...args: Parameters<EventStore['append']>) => {
          const result = await target.append(...args);
          if (written === null || comparePositions(result.position, written) > 0) written = result.position;
          return result;
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const at = (date: Date): CommandContext => ({ store, actor: { type: 'system' }, correlationId: randomUUID(), now: date });
  const isoDate = (date: Date) => date.toISOString().slice(0, 10);
  return {
    at,
    async facility(date: Date, name: string) {
      const id = randomUUID();
      await addFacility(at(date), { name, address: '1 Test Way', phone: null, managerName: null }, id);
      return id;
    },
    async unit(date: Date, facilityId: string, unitNumber: string, building: string) {
      const id = randomUUID();
      await addUnit(at(date), { facilityId, unitNumber, building, size: '10x10', monthlyRate: '100.00', status: 'available', description: null }, id);
      return id;
    },
    async customer(date: Date, facilityId: string, name: { firstName: string; lastName?: string; email: string; phone?: string }) {
      const id = randomUUID();
      const fields = {
        lastName: 'Tenant',
        phone: null,
        address: null,
        emergencyContact: null,
        emergencyPhone: null,
        status: 'active' as const,
        facilityId,
        ...name,
      };
      await addCustomer(at(date), fields, id);
      return id;
    },
    async lease(date: Date, customerId: string, unitId: string, monthlyRate: string) {
      const id = randomUUID();
      // The history's invoices are written by hand (the test's files run with the billing day off).
      await startLease(at(date), { customerId, unitId, startDate: isoDate(date), monthlyRate, depositAmount: null }, id, null, { bill: false });
      return id;
    },
    async sentInvoice(date: Date, customerId: string, amount: string, dueDate = '2030-01-01') {
      const id = randomUUID();
      const fields = { invoiceNumber: `INV-${id.slice(0, 8)}`, customerId, leaseId: null, amount, dueDate, status: 'draft' as const, description: null };
      await generateInvoice(at(date), fields, id);
      await sendInvoice(at(date), id);
      return id;
    },
    async pay(date: Date, invoiceId: string, amount: string) {
      await recordPayment(at(date), invoiceId, { amount, method: 'cash', stripePaymentIntentId: null });
    },
    /** Waits until the read model shows everything written so far. */
    async settle() {
      if (written && !(await platform.api.afterAppend(written, 30_000))) throw new Error('the read model did not catch up');
    },
  };
}
