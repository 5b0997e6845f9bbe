import { streams } from '@storage/contracts/events';
import { comparePositions, type Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { todayIn } from '../billing/calendar.ts';
import { facilityTimeZone } from '../billing/settings.ts';
import { ConflictError, DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, type CommandResult, handleCommand, loadAggregate } from '../commands/handle.ts';
import { decideLease, type ScheduleMoveOut } from './businessLogic.ts';
import { type LeaseState, leaseAggregate } from './lease.ts';
import { type MoveOut, moveOut } from './move-out.ts';

// A move-out dated after the facility's today is scheduled, not done: the lease's stream records
// it (lease_move_out_scheduled, with the deposit choice) and nothing else changes until that day:
// the lease stays active and is billed up to the end date, the unit stays the renter's and off the
// public list, the gate code keeps opening the gate. On the end date the facility's day (the
// billing day, which runs every missed day in a catch-up) moves the renter out as a move-out
// dated that day would: the lease ends on its stream at its revision, then moveOut's steps, each
// named from the lease, so a rerun, a second replica or a catch-up records nothing twice. Staff can
// cancel it before the day (lease_move_out_cancelled). A date of today or earlier is a move-out now.

type MoveOutResult = CommandResult<LeaseState>;

async function leaseAndToday(ctx: CommandContext, leaseId: string) {
  const loaded = await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate);
  if (loaded.state.status === 'none' || loaded.state.status === 'abandoned') throw new NotFoundError('Lease not found');
  const today = todayIn(await facilityTimeZone(ctx.store, loaded.state.terms.facilityId), ctx.now);
  return { loaded, today };
}

/** Today in the lease's facility (its zone) and the move-out scheduled on the lease (null: none). */
export async function moveOutCalendar(ctx: CommandContext, leaseId: string) {
  const { loaded, today } = await leaseAndToday(ctx, leaseId);
  const { state } = loaded;
  return { today, scheduled: state.status === 'active' ? state.moveOut : null, state };
}

/**
 * A move-out as staff ask for it: dated on or before the facility's today, it happens now
 * (moveOut); dated later, it is scheduled on the lease's stream for the facility's day to do.
 * A repeat schedules nothing twice (the first deposit choice stands).
 */
export async function requestMoveOut(ctx: CommandContext, leaseId: string, request: MoveOut): Promise<MoveOutResult> {
  const { loaded, today } = await leaseAndToday(ctx, leaseId);
  if (request.endDate <= today) return moveOut(ctx, leaseId, request);
  const command: ScheduleMoveOut = {
    type: 'ScheduleMoveOut',
    leaseId,
    endDate: request.endDate,
    today,
    deposit: request.deposit ?? null,
    depositMethod: request.depositMethod ?? null,
  };
  return handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideLease(command, state), loaded);
}

/** Calls off the lease's scheduled move-out before its day; with none scheduled, records nothing. */
export async function cancelScheduledMoveOut(ctx: CommandContext, leaseId: string, reason: string | null): Promise<MoveOutResult> {
  const { loaded, today } = await leaseAndToday(ctx, leaseId);
  return handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideLease({ type: 'CancelMoveOut', leaseId, today, reason }, state), loaded);
}

/**
 * The facility's day (`today`) moves the renter out if the lease's scheduled move-out has come:
 * the lease ends on the scheduled day, then the rest of moveOut (the unit vacated, unused days
 * credited, the deposit as chosen when it was scheduled). A lease that ended on its scheduled day
 * before (an attempt that stopped half-way) is finished; any other records nothing.
 * `movedOut`: this call ended the lease.
 */
export async function completeScheduledMoveOut(ctx: CommandContext, leaseId: string, today: string): Promise<MoveOutResult & { movedOut: boolean }> {
  const ended = await handleCommand(ctx, streams.lease(leaseId), leaseAggregate, (state) => decideLease({ type: 'CompleteMoveOut', leaseId, today }, state));
  const lease = ended.state;
  if (lease.status !== 'ended' || lease.moveOut === null || lease.moveOut.endDate !== lease.endDate) return { ...ended, movedOut: false };
  const { endDate, deposit, depositMethod } = lease.moveOut;
  const finished = await moveOut(ctx, leaseId, { endDate, deposit: deposit ?? undefined, depositMethod: depositMethod ?? undefined });
  return { ...finished, position: finished.position ?? ended.position, movedOut: ended.events.length > 0 };
}

export interface ScheduledMoveOutsRun {
  /** Leases this run ended on their scheduled day. */
  movedOut: number;
  /** Leases nominated whose move-out was refused, with why. */
  skipped: { leaseId: string; reason: string }[];
  position: Position | null;
}

const LeaseRow = z.object({ id: z.string() });

/** How long after its end a lease moved out on schedule is looked at again, so a run that stopped half-way is finished by the next. */
const FINISH_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Leases of the facility (null: units of no facility) whose scheduled move-out has come by
 * `today`, earliest first: active ones, and ones that ended on their scheduled day within the
 * last day. The read model only nominates; each lease's stream decides.
 */
async function dueMoveOuts(pool: DatabasePool, facilityId: string | null, today: string, now: Date): Promise<readonly string[]> {
  const since = new Date(now.getTime() - FINISH_WINDOW_MS).toISOString();
  return pool.anyFirst(sql.type(LeaseRow)`
    SELECT l.id::text FROM leases l JOIN units u ON u.id = l.unit_id
    WHERE l.move_out_date <= ${today}::date AND u.facility_id IS NOT DISTINCT FROM ${facilityId}::uuid
      AND (l.is_active OR (l.end_date = l.move_out_date AND l.updated_at >= ${since}::timestamptz))
    ORDER BY l.move_out_date, l.id`);
}

const refused = (error: unknown) => error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError;

/**
 * The scheduled move-outs of a facility's day (`today`, its date), run by the billing day. Every
 * move-out due by then, so a day that was missed (the projector down) moves its renters out on
 * the next run, each on the day it was scheduled for.
 */
export async function runScheduledMoveOuts(
  deps: { pool: DatabasePool },
  ctx: CommandContext,
  facilityId: string | null,
  today: string,
): Promise<ScheduledMoveOutsRun> {
  const run: ScheduledMoveOutsRun = { movedOut: 0, skipped: [], position: null };
  for (const leaseId of await dueMoveOuts(deps.pool, facilityId, today, ctx.now)) {
    try {
      const result = await completeScheduledMoveOut(ctx, leaseId, today);
      if (result.movedOut) run.movedOut++;
      if (result.position && (run.position === null || comparePositions(result.position, run.position) > 0)) run.position = result.position;
    } catch (error) {
      if (!refused(error)) throw error;
      run.skipped.push({ leaseId, reason: (error as Error).message });
    }
  }
  return run;
}
