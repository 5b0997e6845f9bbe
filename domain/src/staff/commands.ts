import type { StaffRole } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { sql } from 'slonik';
import { z } from 'zod';
import type { StaffCommandContext } from '../auth/staff.ts';
import { ConflictError } from '../commands/errors.ts';
import { type CommandResult, handleCommand } from '../commands/handle.ts';
import { decideStaff } from './businessLogic.ts';
import { type StaffState, staffAggregate } from './staff.ts';

/** Any fixed number of this project's own: serialises the changes that can take away an owner. */
const STAFF_ROSTER_LOCK = 7_310_243;

export interface StaffManagementContext extends StaffCommandContext {
  /** Waits (bounded) until the read model shows the change, before the roster lock is let go. */
  afterAppend(position: Position): Promise<void>;
}

/** How long a change waits for another to let the roster lock go before answering 409. */
const ROSTER_LOCK_WAIT_MS = 10_000;

/**
 * Runs a change of roles or status while holding the roster lock (a session-level advisory lock:
 * no transaction stays open while the projector catches up), counting the other active owners
 * after every earlier change has reached the read model. Two owners demoting each other at the
 * same moment: the second sees the first's change and is refused. A waiting change holds no
 * connection of the pool between its tries, so waiters can never starve the holder of the
 * connection it needs to wait for the projector.
 */
async function underRosterLock(
  ctx: StaffManagementContext,
  staffId: string,
  change: (otherActiveOwners: number) => Promise<CommandResult<StaffState>>,
): Promise<CommandResult<StaffState>> {
  const deadline = Date.now() + ROSTER_LOCK_WAIT_MS;
  for (;;) {
    const outcome = await ctx.pool.connect(async (connection) => {
      const locked = await connection.oneFirst(sql.type(z.object({ locked: z.boolean() }))`SELECT pg_try_advisory_lock(${STAFF_ROSTER_LOCK}) AS locked`);
      if (!locked) return null;
      try {
        const others = await connection.oneFirst(sql.type(z.object({ n: z.number() }))`
          SELECT count(*)::int8 AS n FROM staff WHERE role = 'owner' AND status = 'active' AND id <> ${staffId}`);
        const result = await change(others);
        if (result.position) await ctx.afterAppend(result.position);
        return { result };
      } finally {
        await connection.query(sql.unsafe`SELECT pg_advisory_unlock(${STAFF_ROSTER_LOCK})`);
      }
    });
    if (outcome) return outcome.result;
    if (Date.now() > deadline) throw new ConflictError('Someone else is changing the staff at the same time. Please try again.');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function changeStaffRole(ctx: StaffManagementContext, staffId: string, role: StaffRole) {
  return underRosterLock(ctx, staffId, (otherActiveOwners) =>
    handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'ChangeRole', staffId, role, otherActiveOwners }, state)),
  );
}

export function deactivateStaff(ctx: StaffManagementContext, staffId: string) {
  const byStaffId = ctx.actor.type === 'staff' ? ctx.actor.id : null;
  return underRosterLock(ctx, staffId, (otherActiveOwners) =>
    handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'Deactivate', staffId, byStaffId, otherActiveOwners }, state)),
  );
}

export async function reactivateStaff(ctx: StaffManagementContext, staffId: string) {
  const result = await handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'Reactivate', staffId }, state));
  if (result.position) await ctx.afterAppend(result.position);
  return result;
}
