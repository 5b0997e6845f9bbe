import { customerStatuses } from '@storage/contracts/enum-values';
import type { CustomerStatus } from '@storage/contracts/enums';

/** Spec §4: active green, overdue yellow, terminated red, others grey. */
const statusColors: Partial<Record<CustomerStatus, string>> = { active: 'green', overdue: 'gold', terminated: 'red' };

export const customerStatusColor = (status: CustomerStatus): string => statusColors[status] ?? 'default';

export const customerStatusLabel = (status: CustomerStatus): string => status.charAt(0).toUpperCase() + status.slice(1);

export const customerStatusOptions = customerStatuses.map((status) => ({ value: status, label: customerStatusLabel(status) }));
