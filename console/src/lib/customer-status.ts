import { ChosenCustomerStatus } from '@storage/contracts/customers';
import { customerStatuses } from '@storage/contracts/enum-values';
import type { CustomerStatus } from '@storage/contracts/enums';

/** Spec §4: active green, overdue yellow, terminated red, others grey. */
const statusColors: Partial<Record<CustomerStatus, string>> = { active: 'green', overdue: 'gold', terminated: 'red' };

export const customerStatusColor = (status: CustomerStatus): string => statusColors[status] ?? 'default';

export const customerStatusLabel = (status: CustomerStatus): string => status.charAt(0).toUpperCase() + status.slice(1);

export const customerStatusOptions = customerStatuses.map((status) => ({ value: status, label: customerStatusLabel(status) }));

/** The standings staff choose (a new customer's, a change of standing): never overdue, which follows the invoices. */
export const chosenCustomerStatusOptions = ChosenCustomerStatus.options.map((status) => ({ value: status, label: customerStatusLabel(status) }));
