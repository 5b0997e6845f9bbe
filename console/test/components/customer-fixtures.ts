// Grace Hopper as the customers API answers for her: the renter the customer screens' component
// tests show, each test changing only what it is about.

import type { Customer } from '@storage/contracts/customers';

export function graceHopper(changes: Partial<Customer> = {}): Customer {
  return {
    id: '0f1e2d3c-4b5a-4697-8887-766554433221',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace.hopper@example.com',
    phone: '555-0142',
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
    status: 'active',
    facilityId: null,
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    ...changes,
  };
}
