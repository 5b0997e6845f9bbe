import { type LockDesiredState, LockStatus } from '@storage/contracts/enums';
import { type LockException, lockExceptions } from '@storage/contracts/locks';

/** Spec §4: active green, inactive grey, maintenance orange, low_battery red. */
const statusColors: Record<LockStatus, string> = { active: 'green', inactive: 'default', maintenance: 'orange', low_battery: 'red' };

export const lockStatusColor = (status: LockStatus): string => statusColors[status];

export const lockStatusLabel = (status: LockStatus): string => {
  const words = status.replace('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const lockStatusOptions = LockStatus.options.map((status) => ({ value: status, label: lockStatusLabel(status) }));

/** What a lock should be or is: 'Normal', 'Overlocked'; a lock never reported: 'Not reported'. */
export const lockStateLabel = (state: LockDesiredState | null): string => (state === null ? 'Not reported' : state === 'normal' ? 'Normal' : 'Overlocked');

/** How long desired and reported have differed: 'under a minute', '12 min', '3 h 5 min', '2 d 4 h'. */
export function gapDuration(since: string, now: Date = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 60_000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const exceptionLabels: Record<LockException, string> = { lowBattery: 'Low battery', offline: 'Offline', notApplied: 'Not yet applied' };

/** The Exceptions filter's choices, in the contracts' order. */
export const lockExceptionOptions = lockExceptions.map((exception) => ({ value: exception, label: exceptionLabels[exception] }));
