import type { CreateCustomerCommand } from '@storage/contracts/customers';

/**
 * A renter's details as the write side's addCustomer takes them: a last name and an email made
 * unique by `tag`, no contact beyond the email, active, of no facility unless the test says.
 */
export function renterFields(firstName: string, lastName: string, tag: string, overrides: Partial<CreateCustomerCommand> = {}): CreateCustomerCommand {
  return {
    firstName,
    lastName: `${lastName}${tag}`,
    email: `${firstName.toLowerCase()}-${tag}@example.com`,
    phone: null,
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
    status: 'active',
    facilityId: null,
    ...overrides,
  };
}
