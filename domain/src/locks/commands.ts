import { randomUUID } from 'node:crypto';
import type { LockDesiredState, LockStatus } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { NotFoundError } from '../commands/errors.ts';
import { type CommandContext, type CommandResult, envelope, handleCommand, loadAggregate } from '../commands/handle.ts';
import { type UniqueKey, withUniqueKey } from '../commands/unique-keys.ts';
import { unitAggregate } from '../units/unit.ts';
import { decideLock, isRoutineHeartbeat, type LockCommand } from './businessLogic.ts';
import { evolveLock, type LockFields, type LockState, lockAggregate } from './lock.ts';

function decide(ctx: CommandContext, command: LockCommand, keep: (state: LockState, events: DomainEvent[]) => DomainEvent[] = (_, events) => events) {
  return handleCommand(ctx, streams.lock(command.lockId), lockAggregate, (state) => keep(state, decideLock(command, state)));
}

async function requireUnit(ctx: CommandContext, unitId: string | null) {
  if (unitId === null) return;
  const { state } = await loadAggregate(ctx.store, streams.unit(unitId), unitAggregate);
  if (state.status === 'none') throw new NotFoundError('Unit not found');
}

export async function installLock(ctx: CommandContext, fields: LockFields, lockId: string = randomUUID()) {
  await requireUnit(ctx, fields.unitId);
  const key: UniqueKey = {
    kind: 'lock-serial',
    value: fields.serial,
    ownerStream: streams.lock(lockId),
    field: 'lockId',
    takenMessage: `A lock with the id ${fields.serial} already exists`,
  };
  return withUniqueKey(ctx, key, () => decide(ctx, { type: 'InstallLock', lockId, fields }));
}

/**
 * A routine heartbeat (isRoutineHeartbeat) is appended to the lock's heartbeat stream, whatever
 * that stream's revision; one that changes the lock's decisions (its battery crossing the line, a
 * status) goes on the lock's stream with what it decides, at the revision it decided on. The lock
 * projection and the access reactions read heartbeats from either stream alike. The answer's state
 * is the lock with the heartbeat applied.
 */
export async function recordLockHeartbeat(
  ctx: CommandContext,
  lockId: string,
  heartbeat: { batteryLevel: number; firmwareVersion: string | null },
): Promise<CommandResult<LockState>> {
  const heard: { routine: DomainEvent | null } = { routine: null };
  const decided = await decide(ctx, { type: 'RecordLockHeartbeat', lockId, ...heartbeat }, (state, events) => {
    heard.routine = isRoutineHeartbeat(state, events) ? events[0]! : null;
    return heard.routine ? [] : events;
  });
  const routine = heard.routine;
  if (!routine) return decided;
  const { position } = await ctx.store.append(streams.lockHeartbeats(lockId), [envelope(ctx, routine)], { expectedRevision: 'any' });
  return { ...decided, state: evolveLock(decided.state, routine), events: [routine], position };
}

export async function assignLock(ctx: CommandContext, lockId: string, unitId: string | null) {
  await requireUnit(ctx, unitId);
  return decide(ctx, { type: 'AssignLock', lockId, unitId });
}

export async function changeLockStatus(ctx: CommandContext, lockId: string, status: LockStatus) {
  return decide(ctx, { type: 'ChangeLockStatus', lockId, status });
}

export async function grantAccess(ctx: CommandContext, lockId: string, access: { customerId: string | null; method: string }) {
  return decide(ctx, { type: 'GrantAccess', lockId, ...access });
}

export async function changeDesiredLockState(
  ctx: CommandContext,
  lockId: string,
  change: { desired: LockDesiredState; customerId: string | null; reason: string },
) {
  return decide(ctx, { type: 'ChangeDesiredLockState', lockId, ...change });
}

export async function reportLockState(ctx: CommandContext, lockId: string, reported: LockDesiredState) {
  return decide(ctx, { type: 'ReportLockState', lockId, reported });
}
