import { randomInt } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { type EventStore, readStreams } from '@storage/eventstore/port';
import { facilityBilling } from '../billing/settings.ts';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { aggregateFrom, type CommandContext, type CommandResult, handleCommand, loadAggregate, toDomainEvent } from '../commands/handle.ts';
import { claimUniqueKey, releaseUniqueKey, uniqueKeyStream } from '../commands/unique-keys.ts';
import { latestSignature, leaseSignatureState } from '../leases/signature.ts';

// A lease's gate code (stream gate-code-<lease>): 7 random digits, unique among its facility's
// codes (a unique-key claim per facility and code), assigned once at move-in, rotated by staff,
// suspended by a lockout or the move-out, reinstated when the lockout ends. Where the facility
// asks for a signed lease before access, the move-in's code is held until the renter signs.

export const GATE_CODE_DIGITS = 7;
const GATE_CODE_KEY = 'gate-code';
/** Draws before giving up: with 10^7 codes a facility would need millions of leases to collide this often. */
const MAX_DRAWS = 20;

export type GateCodeSuspension = 'lockout' | 'move_out' | 'unsigned';

export type GateCodeState =
  | { status: 'none' }
  | {
      status: 'assigned';
      leaseId: string;
      customerId: string;
      facilityId: string | null;
      code: string;
      /** Why the code opens nothing now; null: it opens the gate. */
      suspended: GateCodeSuspension | null;
      /** Held until the renter signs the lease (whatever else suspends it meanwhile). */
      awaitingSignature: boolean;
    };

export function evolveGateCode(state: GateCodeState, event: DomainEvent): GateCodeState {
  switch (event.type) {
    case 'gate_code_assigned': {
      const { leaseId, customerId, facilityId, code } = event.data;
      // A rotation changes the code, not whether it opens the gate.
      if (state.status === 'assigned') return { ...state, leaseId, customerId, facilityId, code };
      const awaitingSignature = event.data.awaitingSignature === true;
      return { status: 'assigned', leaseId, customerId, facilityId, code, suspended: awaitingSignature ? 'unsigned' : null, awaitingSignature };
    }
    case 'gate_code_suspended':
      return state.status === 'assigned' ? { ...state, suspended: event.data.reason } : state;
    case 'gate_code_reinstated':
      return state.status === 'assigned' ? { ...state, suspended: null } : state;
    case 'gate_code_activated':
      return state.status === 'assigned' ? { ...state, awaitingSignature: false, suspended: state.suspended === 'unsigned' ? null : state.suspended } : state;
    default:
      return state;
  }
}

export const gateCodeAggregate = { initial: { status: 'none' } as GateCodeState, evolve: evolveGateCode };

export type GateCodeLease = { leaseId: string; customerId: string; facilityId: string | null };

/** 7 digits from the OS's random source: not guessable from other codes. */
export function drawGateCode(): string {
  return String(randomInt(0, 10 ** GATE_CODE_DIGITS)).padStart(GATE_CODE_DIGITS, '0');
}

const codeKey = (facilityId: string | null, code: string) => `${facilityId ?? 'none'}:${code}`;

// --- Deciders ---

/** The move-in's code: once per lease (a repeat decides nothing); `awaitingSignature`: held until the lease is signed. */
export function assignGateCode(lease: GateCodeLease, code: string, state: GateCodeState, awaitingSignature = false): DomainEvent[] {
  if (state.status !== 'none') return [];
  return [{ type: 'gate_code_assigned', data: { ...lease, code, reason: 'move_in', ...(awaitingSignature && { awaitingSignature }) } }];
}

export function rotateGateCode(code: string, state: GateCodeState): DomainEvent[] {
  if (state.status === 'none') throw new NotFoundError('This lease has no gate code');
  if (state.suspended === 'move_out') throw new ConflictError('The lease has ended: its gate code cannot be rotated');
  const { leaseId, customerId, facilityId } = state;
  return [{ type: 'gate_code_assigned', data: { leaseId, customerId, facilityId, code, reason: 'rotated' } }];
}

/**
 * A lockout suspends a code that is open or waits for a signature (so that signing while locked
 * out opens nothing); the move-out suspends it for good (a lockout's end no longer reinstates it).
 */
export function suspendGateCode(reason: Exclude<GateCodeSuspension, 'unsigned'>, state: GateCodeState): DomainEvent[] {
  if (state.status === 'none' || state.suspended === reason) return [];
  if (reason === 'lockout' && state.suspended !== null && state.suspended !== 'unsigned') return [];
  return [{ type: 'gate_code_suspended', data: { leaseId: state.leaseId, customerId: state.customerId, reason } }];
}

/** Only a lockout's suspension is undone; a code still waiting for the signature goes back to waiting. */
export function reinstateGateCode(reason: string, state: GateCodeState): DomainEvent[] {
  if (state.status === 'none' || state.suspended !== 'lockout') return [];
  const { leaseId, customerId } = state;
  if (state.awaitingSignature) return [{ type: 'gate_code_suspended', data: { leaseId, customerId, reason: 'unsigned' } }];
  return [{ type: 'gate_code_reinstated', data: { leaseId, customerId, reason } }];
}

/** The lease is signed: a code held for it opens the gate, unless a lockout or the move-out holds it. */
export function activateGateCode(state: GateCodeState): DomainEvent[] {
  if (state.status === 'none' || !state.awaitingSignature) return [];
  return [{ type: 'gate_code_activated', data: { leaseId: state.leaseId, customerId: state.customerId } }];
}

// --- Commands ---

/**
 * Draws codes until one is free in the facility, claims it for the lease's stream and writes
 * `decide`'s events; a claim the decision did not use (a race lost to another assignment) is let go.
 */
async function withFreshCode(
  ctx: CommandContext,
  leaseId: string,
  facilityId: string | null,
  decide: (code: string, state: GateCodeState) => DomainEvent[],
  draw: () => string,
): Promise<CommandResult<GateCodeState>> {
  const owner = streams.gateCode(leaseId);
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    const code = draw();
    if (!(await claimUniqueKey(ctx, GATE_CODE_KEY, codeKey(facilityId, code), owner))) continue;
    let result: CommandResult<GateCodeState>;
    try {
      result = await handleCommand(ctx, owner, gateCodeAggregate, (state) => decide(code, state));
    } catch (error) {
      await releaseUniqueKey(ctx, GATE_CODE_KEY, codeKey(facilityId, code), owner);
      throw error;
    }
    if (result.events.length === 0) await releaseUniqueKey(ctx, GATE_CODE_KEY, codeKey(facilityId, code), owner);
    return result;
  }
  throw new ConflictError('No free gate code was found; please try again');
}

/** Whether the lease's code must wait for its signature: the facility asks for one, and the lease has none yet. */
async function awaitsSignature(ctx: CommandContext, lease: GateCodeLease): Promise<boolean> {
  const { settings } = await facilityBilling(ctx.store, lease.facilityId);
  if (settings.signatureBeforeAccess !== true) return false;
  return latestSignature(await leaseSignatureState(ctx, lease.leaseId)) === null;
}

/** The lease's gate code at move-in (held until the lease is signed where the facility asks for that); a lease that has one keeps it. */
export async function assignMoveInGateCode(ctx: CommandContext, lease: GateCodeLease, draw: () => string = drawGateCode) {
  const known = await loadAggregate(ctx.store, streams.gateCode(lease.leaseId), gateCodeAggregate);
  if (known.state.status !== 'none') return { ...known, events: [] as DomainEvent[], position: null };
  const awaiting = await awaitsSignature(ctx, lease);
  return withFreshCode(ctx, lease.leaseId, lease.facilityId, (code, state) => assignGateCode(lease, code, state, awaiting), draw);
}

/** The lease was signed: its code, held until then, opens the gate. */
export async function activateLeaseGateCode(ctx: CommandContext, leaseId: string) {
  return handleCommand(ctx, streams.gateCode(leaseId), gateCodeAggregate, activateGateCode);
}

/** A new code for the lease; the old one stops opening anything and is free again. */
export async function rotateLeaseGateCode(ctx: CommandContext, leaseId: string, draw: () => string = drawGateCode) {
  const { state } = await loadAggregate(ctx.store, streams.gateCode(leaseId), gateCodeAggregate);
  if (state.status === 'none') throw new NotFoundError('This lease has no gate code');
  // Refused (an ended lease) before a code is claimed for nothing.
  rotateGateCode(state.code, state);
  const result = await withFreshCode(ctx, leaseId, state.facilityId, rotateGateCode, draw);
  await releaseUniqueKey(ctx, GATE_CODE_KEY, codeKey(state.facilityId, state.code), streams.gateCode(leaseId));
  return result;
}

export async function suspendLeaseGateCode(ctx: CommandContext, leaseId: string, reason: Exclude<GateCodeSuspension, 'unsigned'>) {
  return handleCommand(ctx, streams.gateCode(leaseId), gateCodeAggregate, (state) => suspendGateCode(reason, state));
}

export async function reinstateLeaseGateCode(ctx: CommandContext, leaseId: string, reason: string) {
  return handleCommand(ctx, streams.gateCode(leaseId), gateCodeAggregate, (state) => reinstateGateCode(reason, state));
}

// --- Reading codes: only from their streams (a code is a secret no read table holds) ---

/** The current code of each lease that has one. */
export async function currentGateCodes(store: EventStore, leaseIds: readonly string[]): Promise<Map<string, GateCodeState & { status: 'assigned' }>> {
  const unique = [...new Set(leaseIds)];
  const read = await readStreams(
    store,
    unique.map((id) => streams.gateCode(id)),
  );
  const codes = new Map<string, GateCodeState & { status: 'assigned' }>();
  for (const leaseId of unique) {
    const { state } = aggregateFrom(read.get(streams.gateCode(leaseId)) ?? [], gateCodeAggregate);
    if (state.status === 'assigned') codes.set(leaseId, state);
  }
  return codes;
}

/** The lease whose code `code` is in the facility, through the code's claim (null: no lease holds it). */
export async function leaseOfGateCode(store: EventStore, facilityId: string | null, code: string): Promise<(GateCodeState & { status: 'assigned' }) | null> {
  const claims = await store.readStream(uniqueKeyStream(GATE_CODE_KEY, codeKey(facilityId, code)));
  const last = claims.at(-1);
  if (!last) return null;
  const event = toDomainEvent(last);
  if (event.type !== 'unique_key_claimed') return null;
  const { state } = aggregateFrom(await store.readStream(event.data.ownerStream), gateCodeAggregate);
  return state.status === 'assigned' && state.code === code ? state : null;
}
