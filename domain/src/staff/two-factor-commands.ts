import { streams } from '@storage/contracts/events';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { decideStaff } from './businessLogic.ts';
import { staffAggregate } from './staff.ts';

// Two-factor sign-in on a staff member's stream. The factor's secret and recovery codes live in the
// API's write-side table (staff_two_factor); the caller checks a code against a factor first, and
// the event names only that factor's id, with the stream's expected revision: the stream decides
// which factor is current, so a factor reset or replaced meanwhile makes the check count for nothing.

/** The member confirmed the enrolment `factorId` with a current code. */
export function enableTwoFactor(ctx: CommandContext, staffId: string, factorId: string) {
  return handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'EnableTwoFactor', staffId, factorId }, state));
}

/** The member turned it off with their password and a code checked against `verifiedFactorId`. */
export function disableTwoFactor(ctx: CommandContext, staffId: string, verifiedFactorId: string) {
  return handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'DisableTwoFactor', staffId, verifiedFactorId }, state));
}

/** An owner turned it off for the member (a lost phone); nothing is recorded when it was off. */
export function resetTwoFactor(ctx: CommandContext, staffId: string) {
  return handleCommand(ctx, streams.staff(staffId), staffAggregate, (state) => decideStaff({ type: 'ResetTwoFactor', staffId }, state));
}
