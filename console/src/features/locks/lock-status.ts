import { LockStatus } from '@storage/contracts/enums';

/** Spec §4: active green, inactive grey, maintenance orange, low_battery red. */
const statusColors: Record<LockStatus, string> = { active: 'green', inactive: 'default', maintenance: 'orange', low_battery: 'red' };

export const lockStatusColor = (status: LockStatus): string => statusColors[status];

export const lockStatusLabel = (status: LockStatus): string => {
  const words = status.replace('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const lockStatusOptions = LockStatus.options.map((status) => ({ value: status, label: lockStatusLabel(status) }));
