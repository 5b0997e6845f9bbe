import { z } from 'zod';
import { HeartbeatAccessAnswer, HeartbeatAccessFields } from './access.ts';
import { LockDesiredState, LockStatus } from './enums.ts';
import { Id, IsoDateTime, OptionalText, RequiredText, SearchText } from './fields.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

export const MIN_BATTERY_LEVEL = 0;
export const MAX_BATTERY_LEVEL = 100;
export const NEW_LOCK_BATTERY_LEVEL = 100;
/** Below this battery level (percent) a lock reports low battery. */
export const LOW_BATTERY_LEVEL = 20;

/** The low-battery rule: the lock flags it, the list filters by it and the battery bar turns red by it. */
export const isLowBattery = (batteryLevel: number): boolean => batteryLevel < LOW_BATTERY_LEVEL;

/** A lock not heard from for this long (or never) is offline: a day, past the spec's 'Nh ago' ages of 'Last seen'. */
export const OFFLINE_AFTER_HOURS = 24;

/** A lock last seen before this instant is offline (see OFFLINE_AFTER_HOURS). */
export const offlineBefore = (now: Date): Date => new Date(now.getTime() - OFFLINE_AFTER_HOURS * 3_600_000);

/** The offline rule: never seen, or last seen before `offlineBefore(now)`. */
export const isLockOffline = (lastSeen: string | null, now: Date): boolean => lastSeen === null || Date.parse(lastSeen) < offlineBefore(now).getTime();

export const BatteryLevel = z.number().refine((level) => Number.isInteger(level) && level >= MIN_BATTERY_LEVEL && level <= MAX_BATTERY_LEVEL, {
  message: `must be a whole number from ${MIN_BATTERY_LEVEL} to ${MAX_BATTERY_LEVEL}`,
});

const FirmwareVersion = OptionalText(40);

export const CreateLockRequest = z.strictObject({
  lockId: RequiredText(60),
  unitId: Id.nullish().transform((v) => v ?? null),
  status: LockStatus.default('active'),
  batteryLevel: BatteryLevel.default(NEW_LOCK_BATTERY_LEVEL),
  firmwareVersion: FirmwareVersion,
});
export type CreateLockRequest = z.input<typeof CreateLockRequest>;
export type CreateLockCommand = z.output<typeof CreateLockRequest>;

/** Lock details: put the lock on a unit (or take it off with null), change its status, or both. */
export const UpdateLockRequest = z
  .strictObject({
    unitId: Id.nullable().optional(),
    status: LockStatus.optional(),
  })
  .refine((v) => v.unitId !== undefined || v.status !== undefined, { message: 'must change the unit or the status' });
export type UpdateLockRequest = z.input<typeof UpdateLockRequest>;

/** Unit is the unit number; battery lowest first and last seen newest first unless asked otherwise; locks never seen, or on no unit, come last. */
export const lockSorting = listSorting({ lockId: 'asc', unit: 'asc', status: 'asc', batteryLevel: 'asc', lastSeen: 'desc' }, 'lockId');

/**
 * The exceptions a manager looks for first: a battery under LOW_BATTERY_LEVEL, offline
 * (isLockOffline), and a desired state the lock has not yet applied (desired and reported differ:
 * `differsSince` is set).
 */
export const lockExceptions = ['lowBattery', 'offline', 'notApplied'] as const;
export const LockException = z.enum(lockExceptions);
export type LockException = z.infer<typeof LockException>;

const exceptionName = `(${lockExceptions.join('|')})`;
/** Exceptions as a query parameter (and the console's URL): names joined by commas, 'lowBattery,offline'. */
export const LockExceptionsText = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(new RegExp(`^${exceptionName}(,${exceptionName})*$`), `must be one or more of ${lockExceptions.join(', ')}, separated by commas`);

/** The exceptions a parameter names, each once, in their own order. */
export const lockExceptionsOf = (text: string): LockException[] => lockExceptions.filter((name) => text.split(',').includes(name));

/** The parameter naming `exceptions` ('' for none). */
export const lockExceptionsText = (exceptions: readonly LockException[]): string => lockExceptions.filter((name) => exceptions.includes(name)).join(',');

export const ListLocksQuery = z.strictObject({
  search: SearchText,
  facilityId: Id.optional(),
  status: LockStatus.optional(),
  /** A lock with any of these exceptions (with the search, facility and status as well). */
  exceptions: LockExceptionsText.transform(lockExceptionsOf).optional(),
  ...lockSorting.fields,
  ...pagingFields,
});
export type ListLocksQuery = z.input<typeof ListLocksQuery>;

export const LockUnit = z.object({ id: Id, facilityId: z.string().nullable(), unitNumber: z.string() });
export type LockUnit = z.infer<typeof LockUnit>;

/** The lock list item (spec §3): the lock plus its unit, null when it is on none. */
export const Lock = z.object({
  id: Id,
  lockId: z.string(),
  unitId: z.string().nullable(),
  status: LockStatus,
  batteryLevel: z.number().int().nullable(),
  lastSeen: IsoDateTime.nullable(),
  firmwareVersion: z.string().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  unit: LockUnit.nullable(),
  /** What the lock should be (a lockout overlocks it). */
  desiredState: LockDesiredState,
  /** What its gateway last reported it is; null: never reported. */
  reportedState: LockDesiredState.nullable(),
  reportedAt: IsoDateTime.nullable(),
  /** Since when desired and reported differ; null: they agree. */
  differsSince: IsoDateTime.nullable(),
});
export type Lock = z.infer<typeof Lock>;

/** What a facility's lock gateway reports for one lock. */
export const LockHeartbeatRequest = z.strictObject({
  batteryLevel: BatteryLevel,
  firmwareVersion: FirmwareVersion,
  ...HeartbeatAccessFields,
});
export type LockHeartbeatRequest = z.input<typeof LockHeartbeatRequest>;

export const LockHeartbeatAnswer = z.object({ id: Id, status: LockStatus, batteryLevel: z.number().int(), ...HeartbeatAccessAnswer });
export type LockHeartbeatAnswer = z.infer<typeof LockHeartbeatAnswer>;

/** A facility's gateway key as staff see it after creation: never the key itself. */
export const GatewayKey = z.object({ keyPrefix: z.string(), createdAt: IsoDateTime });
export type GatewayKey = z.infer<typeof GatewayKey>;

/** The answer to creating or rotating a key: the only time the key is shown. */
export const IssuedGatewayKey = GatewayKey.extend({ key: z.string() });
export type IssuedGatewayKey = z.infer<typeof IssuedGatewayKey>;
