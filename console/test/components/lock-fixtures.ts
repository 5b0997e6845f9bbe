// Locks as the API answers them, for the Smart Locks component tests.

import type { Lock } from '@storage/contracts/locks';

export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

/** A lock seen two hours ago, on no unit, with `extra` over it. */
export const lock = (lockId: string, extra: Partial<Lock> = {}): Lock => ({
  id: crypto.randomUUID(),
  lockId,
  unitId: null,
  status: 'active',
  batteryLevel: 80,
  lastSeen: hoursAgo(2),
  firmwareVersion: '2.4.0',
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  unit: null,
  desiredState: 'normal',
  reportedState: 'normal',
  reportedAt: hoursAgo(2),
  differsSince: null,
  ...extra,
});

/** A lock's unit fields: on unit `unitNumber` of the facility. */
export const onUnit = (facilityId: string, unitNumber: string) => {
  const id = crypto.randomUUID();
  return { unitId: id, unit: { id, facilityId, unitNumber } };
};
