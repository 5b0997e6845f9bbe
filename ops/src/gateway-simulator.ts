// A simulated lock gateway for one facility (`npm run ops -- gateway:simulate`): what a real
// gateway does, over the product's HTTP API with the facility's key. Each loop it learns the
// changes since its last acknowledgement (lock desired states, gate codes), applies them to its
// locks, reports each lock's state in its heartbeat, and sends a few random access attempts
// with the codes it knows (active and suspended) and some wrong ones, deciding each as a gate would.

import { randomInt, randomUUID } from 'node:crypto';
import type { AccessAttempt, GatewayChange } from '@storage/contracts/access';
import type { LockDesiredState } from '@storage/contracts/enums';
import type { LockHeartbeatAnswer } from '@storage/contracts/locks';
import { assignMoveInGateCode } from '@storage/domain/access/gate-codes';
import type { CommandContext } from '@storage/domain/commands/handle';
import { issueGatewayKey } from '@storage/domain/locks/gateway-keys';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type SimulatedLock = { id: string; serial: string; batteryLevel: number };

export interface GatewaySimulatorOptions {
  url: string;
  key: string;
  locks: readonly SimulatedLock[];
  /** Attempts sent per loop (default 3). */
  attemptsPerLoop?: number;
  log?: (line: string) => void;
  /** A random whole number from 0 to n - 1 (tests may pass their own). */
  random?: (n: number) => number;
}

export type LoopResult = { learned: number; reported: number; attempts: AccessAttempt[]; ack: number };

export class GatewaySimulator {
  /** The last change applied. */
  ack = 0;
  /** What each lock is, as this gateway applied it. */
  readonly lockStates = new Map<string, LockDesiredState>();
  /** Each lease's code and whether it opens the gate. */
  readonly codes = new Map<string, { code: string; active: boolean }>();
  private readonly reportedStates = new Map<string, LockDesiredState>();
  private readonly log: (line: string) => void;
  private readonly random: (n: number) => number;
  private readonly options: GatewaySimulatorOptions;

  constructor(options: GatewaySimulatorOptions) {
    this.options = options;
    this.log = options.log ?? ((line) => console.log(line));
    this.random = options.random ?? ((n) => randomInt(0, n));
    for (const lock of options.locks) this.lockStates.set(lock.id, 'normal');
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(new URL(path, this.options.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.options.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  private serial(lockId: string): string {
    return this.options.locks.find((l) => l.id === lockId)?.serial ?? lockId;
  }

  private apply(changes: readonly GatewayChange[]): number {
    for (const change of changes) {
      if (change.kind === 'lock') {
        if (this.lockStates.has(change.lockId) && this.lockStates.get(change.lockId) !== change.desired) {
          this.log(`  lock ${this.serial(change.lockId)}: now ${change.desired} (change ${change.sequence})`);
        }
        this.lockStates.set(change.lockId, change.desired);
      } else {
        const before = this.codes.get(change.leaseId);
        if (before && before.active !== change.active)
          this.log(`  gate code of lease ${change.leaseId.slice(0, 8)}: ${change.active ? 'reinstated' : 'suspended'} (change ${change.sequence})`);
        this.codes.set(change.leaseId, { code: change.code, active: change.active });
      }
      this.ack = Math.max(this.ack, change.sequence);
    }
    return changes.length;
  }

  private async heartbeat(lock: SimulatedLock, reported?: LockDesiredState): Promise<LockHeartbeatAnswer> {
    return this.post<LockHeartbeatAnswer>(`/api/locks/${lock.id}/heartbeat`, {
      batteryLevel: lock.batteryLevel,
      ack: this.ack,
      ...(reported !== undefined && { reported }),
    });
  }

  /** One loop: learn and apply the changes, report every lock's state, send random attempts. */
  async loop(): Promise<LoopResult> {
    let learned = 0;
    let reported = 0;
    const [first] = this.options.locks;
    if (first) {
      // Learn everything waiting (several answers when more than one answer's worth is waiting).
      for (let more = true; more; ) {
        const answer = await this.heartbeat(first);
        learned += this.apply(answer.changes ?? []);
        more = answer.more === true;
      }
    }
    for (const lock of this.options.locks) {
      const state = this.lockStates.get(lock.id) ?? 'normal';
      const report = this.reportedStates.get(lock.id) === state ? undefined : state;
      const answer = await this.heartbeat(lock, report);
      learned += this.apply(answer.changes ?? []);
      if (report !== undefined) {
        this.reportedStates.set(lock.id, report);
        reported++;
      }
    }
    const attempts = this.randomAttempts();
    if (attempts.length > 0) {
      const { recorded } = await this.post<{ recorded: number }>('/api/gateway/access-attempts', { attempts });
      for (const a of attempts)
        this.log(`  attempt: ${a.via === 'gate_code' ? `code ${a.code}` : `lock ${this.serial(a.lockId!)}`} ${a.granted ? 'granted' : 'denied'} (${a.reason})`);
      this.log(`  ${recorded} attempts recorded`);
    }
    this.log(`loop: ${learned} changes learned (ack ${this.ack}), ${reported} lock states reported, ${attempts.length} attempts sent`);
    return { learned, reported, attempts, ack: this.ack };
  }

  /** Attempts a gate would see: codes it knows (active: granted; suspended: denied), wrong codes, and locks. */
  randomAttempts(): AccessAttempt[] {
    const count = this.options.attemptsPerLoop ?? 3;
    const codes = [...this.codes.values()];
    const active = codes.filter((c) => c.active);
    const suspended = codes.filter((c) => !c.active);
    const known = new Set(codes.map((c) => c.code));
    const attempts: AccessAttempt[] = [];
    const at = () => new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const pick = this.random(4);
      if (pick === 0 && active.length > 0) {
        attempts.push({ id: randomUUID(), at: at(), via: 'gate_code', code: active[this.random(active.length)]!.code, granted: true, reason: 'Code accepted' });
      } else if (pick === 1 && suspended.length > 0) {
        attempts.push({
          id: randomUUID(),
          at: at(),
          via: 'gate_code',
          code: suspended[this.random(suspended.length)]!.code,
          granted: false,
          reason: 'Code suspended',
        });
      } else if (pick === 2 && this.options.locks.length > 0) {
        const lock = this.options.locks[this.random(this.options.locks.length)]!;
        const overlocked = this.lockStates.get(lock.id) === 'overlocked';
        attempts.push({ id: randomUUID(), at: at(), via: 'lock', lockId: lock.id, granted: !overlocked, reason: overlocked ? 'Overlocked' : 'Unlocked' });
      } else {
        let wrong = String(this.random(10_000_000)).padStart(7, '0');
        while (known.has(wrong)) wrong = String(this.random(10_000_000)).padStart(7, '0');
        attempts.push({ id: randomUUID(), at: at(), via: 'gate_code', code: wrong, granted: false, reason: 'Unknown code' });
      }
    }
    return attempts;
  }
}

const LockRow = z.object({ id: z.string(), lock_id: z.string(), battery_level: z.number().nullable() });
const LeaseRow = z.object({ lease_id: z.string(), customer_id: z.string() });

export type PreparedSimulation = { facilityName: string; key: string; issuedKey: boolean; locks: SimulatedLock[]; codesAssigned: number };

/**
 * What the simulator needs from the facility's data: its locks, its key (a new one when none is
 * given: it replaces the old one), and a gate code on every active lease (those moved in before
 * gate codes existed get one now, as a move-in would).
 */
export async function prepareSimulation(pool: DatabasePool, store: EventStore, facilityId: string, key: string | undefined): Promise<PreparedSimulation> {
  const facility = await pool.maybeOne(sql.type(z.object({ name: z.string() }))`SELECT name FROM facilities WHERE id = ${facilityId}`);
  if (!facility) throw new Error(`No facility has the id ${facilityId}`);
  const ctx: CommandContext = { store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() };
  const issued = key === undefined ? await issueGatewayKey(ctx, facilityId) : null;
  if (issued) await keyProjected(pool, facilityId, issued.issued.keyPrefix);
  const leases = await pool.any(sql.type(LeaseRow)`
    SELECT l.id::text AS lease_id, l.customer_id::text AS customer_id FROM leases l JOIN units u ON u.id = l.unit_id
    WHERE u.facility_id = ${facilityId} AND l.is_active AND NOT EXISTS (SELECT 1 FROM gate_codes g WHERE g.lease_id = l.id)`);
  let codesAssigned = 0;
  for (const lease of leases) {
    codesAssigned += (await assignMoveInGateCode(ctx, { leaseId: lease.lease_id, customerId: lease.customer_id, facilityId })).events.length;
  }
  const locks = await pool.any(sql.type(LockRow)`SELECT id::text, lock_id, battery_level FROM locks WHERE facility_id = ${facilityId} ORDER BY lock_id`);
  return {
    facilityName: facility.name,
    key: issued?.issued.key ?? key!,
    issuedKey: issued !== null,
    locks: locks.map((l) => ({ id: l.id, serial: l.lock_id, batteryLevel: Math.max(l.battery_level ?? 100, 0) })),
    codesAssigned,
  };
}

/** How long a new key may take to reach the read model, which the product checks keys against. */
const KEY_PROJECTED_WITHIN_MS = 30_000;

/**
 * Waits until the product's read model holds the key just issued (its projector, running apart,
 * takes a moment): a gateway sending it before that is refused with 401.
 */
async function keyProjected(pool: DatabasePool, facilityId: string, keyPrefix: string): Promise<void> {
  const deadline = Date.now() + KEY_PROJECTED_WITHIN_MS;
  for (;;) {
    const row = await pool.maybeOne(sql.type(z.object({ key_prefix: z.string() }))`SELECT key_prefix FROM gateway_keys WHERE facility_id = ${facilityId}`);
    if (row?.key_prefix === keyPrefix) return;
    if (Date.now() > deadline)
      throw new Error(`The new gateway key did not reach the read model within ${KEY_PROJECTED_WITHIN_MS / 1000} s: is the product (its projector) running?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
