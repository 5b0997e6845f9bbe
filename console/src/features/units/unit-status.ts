import { UnitStatus, unitStatusLabels } from '@storage/contracts/enums';

/** Spec §4: available green, occupied blue, maintenance orange, reserved purple. */
const statusColors: Record<UnitStatus, string> = { available: 'green', occupied: 'blue', maintenance: 'orange', reserved: 'purple' };

export const unitStatusColor = (status: UnitStatus): string => statusColors[status];

export const unitStatusLabel = (status: UnitStatus): string => unitStatusLabels[status];

export const unitStatusOptions = UnitStatus.options.map((status) => ({ value: status, label: unitStatusLabel(status) }));
