import { createHash, randomBytes } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { unitAggregate } from '../units/unit.ts';
import { lockAggregate } from './lock.ts';

// A facility's lock gateway reports heartbeats with a key of its own (not a staff session). Only
// the key's hash is kept, on the facility's stream; a rotation makes the old key useless at once.

const KEY_MARK = 'sgk_';
/** How much of a key staff see afterwards, to tell which key a gateway holds. */
const SHOWN_PREFIX_LENGTH = KEY_MARK.length + 8;

export function newGatewayKey(): string {
  return `${KEY_MARK}${randomBytes(32).toString('base64url')}`;
}

/** A key is 256 random bits: a fast hash is enough, no password stretching needed. */
export function hashGatewayKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function gatewayKeyPrefix(key: string): string {
  return key.slice(0, SHOWN_PREFIX_LENGTH);
}

export type GatewayKeyState = { facility: 'none' } | { facility: 'current'; keyHash: string | null };

export function evolveGatewayKey(state: GatewayKeyState, event: DomainEvent): GatewayKeyState {
  switch (event.type) {
    case 'facility_added':
      return { facility: 'current', keyHash: null };
    case 'gateway_key_rotated':
      return state.facility === 'none' ? state : { facility: 'current', keyHash: event.data.keyHash };
    default:
      return state;
  }
}

/** The facility stream as the gateway key sees it. */
export const gatewayKeyAggregate = { initial: { facility: 'none' } as GatewayKeyState, evolve: evolveGatewayKey };

export type RotateGatewayKey = { type: 'RotateGatewayKey'; facilityId: string; keyHash: string; keyPrefix: string };

export function rotateGatewayKey(command: RotateGatewayKey, state: GatewayKeyState): DomainEvent[] {
  if (state.facility === 'none') throw new NotFoundError('Facility not found');
  const { facilityId, keyHash, keyPrefix } = command;
  return [{ type: 'gateway_key_rotated', data: { facilityId, keyHash, keyPrefix } }];
}

/** Creates the facility's first key or replaces its key; the answer is the only place the key itself appears. */
export async function issueGatewayKey(ctx: CommandContext, facilityId: string) {
  const key = newGatewayKey();
  const command: RotateGatewayKey = { type: 'RotateGatewayKey', facilityId, keyHash: hashGatewayKey(key), keyPrefix: gatewayKeyPrefix(key) };
  const result = await handleCommand(ctx, streams.facility(facilityId), gatewayKeyAggregate, (state) => rotateGatewayKey(command, state));
  return { issued: { key, keyPrefix: command.keyPrefix, createdAt: ctx.now.toISOString() }, position: result.position };
}

const KeyRow = z.object({ facility_id: z.string() });
const ShownKeyRow = z.object({ key_prefix: z.string(), created_at: z.string() });

export async function getGatewayKey(pool: DatabasePool, facilityId: string) {
  const row = await pool.maybeOne(sql.type(ShownKeyRow)`SELECT key_prefix, created_at FROM gateway_keys WHERE facility_id = ${facilityId}`);
  return row ? { keyPrefix: row.key_prefix, createdAt: row.created_at } : null;
}

/**
 * The facility whose current key `authorization` ("Bearer <key>") carries, or null. The read
 * model finds the facility; its stream confirms the key was not rotated since.
 */
export async function facilityOfGatewayKey(pool: DatabasePool, store: EventStore, authorization: string | undefined): Promise<string | null> {
  const key = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!key) return null;
  const keyHash = hashGatewayKey(key);
  const found = await pool.maybeOne(sql.type(KeyRow)`SELECT facility_id::text FROM gateway_keys WHERE key_hash = ${keyHash}`);
  if (!found) return null;
  const { state } = await loadAggregate(store, streams.facility(found.facility_id), gatewayKeyAggregate);
  return state.facility === 'current' && state.keyHash === keyHash ? found.facility_id : null;
}

/** A gateway speaks only for the locks on its facility's units. */
export async function requireLockAtFacility(store: EventStore, lockId: string, facilityId: string): Promise<void> {
  const { state: lock } = await loadAggregate(store, streams.lock(lockId), lockAggregate);
  if (lock.status === 'none') throw new NotFoundError('Lock not found');
  const unitId = lock.fields.unitId;
  const { state: unit } = unitId ? await loadAggregate(store, streams.unit(unitId), unitAggregate) : { state: null };
  if (unit?.status !== 'current' || unit.fields.facilityId !== facilityId) {
    throw new ForbiddenError("This lock is not on a unit of the gateway key's facility");
  }
}
