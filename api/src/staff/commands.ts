import type { StaffRole } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import type { Position } from '@storage/eventstore/port';
import { sql } from 'slonik';
import { z } from 'zod';
import type { StaffCommandContext } from '../auth/staff.ts';
import { handleCommand, type CommandResult } from '../commands/handle.ts';
import { decideStaff } from './businessLogic.ts';
import { staffAggregate, type StaffState } from './staff.ts';

/** Any fixed number of this project's own: serialises the changes that can take away an owner. */
const STAFF_ROSTER_LOCK = 7_310_243;

export interface StaffManagementContext extends StaffCommandContext {
  /** Waits (bounded) until the read model shows the change, before the roster lock is let go. */
  afterAppend(position: Position): Promise<void>;
}

/**
 * Runs a change of roles or status while holding the roster lock (a session-level advisory lock:
 * no transaction stays open while the projector catches up), counting the other active owners
 * after every earlier change has reached the read model. Two owners demoting each other at the
 * same moment: the second sees the first's change and is refused.
 */
async function underRosterLock(
  ctx: StaffManagementContext,
  staffId: string,
  change: (otherActiveOwners: number) => Promise<CommandResult<StaffState>>,
): Promise<CommandResult<StaffState>> {
  return ctx.pool.connect(async (connection) => {
    await connection.query(sql.unsafe`SELECT pg_advisory_lock(${STAFF_ROSTER_LOCK})`);
    try {
      const others = await connection.oneFirst(sql.type(z.object({ n: z.number() }))`
        SELECT count(*)::int8 AS n FROM staff WHERE role = 'owner' AND status = 'active' AND id <> ${staffId}`);
      const result = await change(others);
      if (result.position) await ctx.afterAppend(result.position);
      return result;
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(${STAFF_ROSTER_LOCK})`);
    }
  });
}

export function changeStaffRole(ctx: StaffManagementContext, staffId: string, role: StaffRole) {
  return underRosterLock(ctx, staffId, (otherActiveOwners) =>
    handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) =>
      decideStaff({ type: 'ChangeRole', staffId, role, otherActiveOwners }, state),
    ),
  );
}

export function deactivateStaff(ctx: StaffManagementContext, staffId: string) {
  const byStaffId = ctx.actor.type === 'staff' ? ctx.actor.id : null;
  return underRosterLock(ctx, staffId, (otherActiveOwners) =>
    handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) =>
      decideStaff({ type: 'Deactivate', staffId, byStaffId, otherActiveOwners }, state),
    ),
  );
}

export async function reactivateStaff(ctx: StaffManagementContext, staffId: string) {
  const result = await handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'Reactivate', staffId }, state));
  if (result.position) await ctx.afterAppend(result.position);
  return result;
}
