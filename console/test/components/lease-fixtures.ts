// Unit A-101, available, and Grace Hopper's lease of it, as the API answers them: what the lease
// screens' component tests show, each test changing only what it is about.

import type { Lease } from '@storage/contracts/leases';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import type { Unit } from '@storage/contracts/units';
import { graceHopper } from './customer-fixtures.ts';

export const unitA101: Unit = {
  id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  unitNumber: 'A-101',
  building: 'A',
  facilityId: null,
  size: '10x10',
  monthlyRate: '120.00',
  status: 'available',
  description: null,
  features: NO_UNIT_FEATURES,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
};

export function graceLeaseOfA101(changes: Partial<Lease> = {}): Lease {
  const customer = graceHopper();
  return {
    id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
    customer: { id: customer.id, firstName: customer.firstName, lastName: customer.lastName, email: customer.email, phone: customer.phone },
    unit: { id: unitA101.id, unitNumber: unitA101.unitNumber, size: unitA101.size, building: unitA101.building, facilityId: null },
    isActive: true,
    monthlyRate: '120.00',
    depositAmount: null,
    startDate: '2026-02-10',
    endDate: null,
    moveOutDate: null,
    createdAt: '2026-02-10T10:00:00.000Z',
    invoiceSummary: { paid: 0, overdue: 0, total: 1 },
    ...changes,
  };
}
