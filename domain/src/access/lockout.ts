import type { LockDesiredState } from '@storage/contracts/enums';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import type { CommandContext } from '../commands/handle.ts';
import { changeDesiredLockState } from '../locks/commands.ts';
import { assignMoveInGateCode, reinstateLeaseGateCode, suspendLeaseGateCode } from './gate-codes.ts';

// A lockout denies the renter every unit they lease: each lease's gate code is suspended and each
// lock on its unit should be overlocked. Clearing the delinquency undoes exactly that. Every step
// is decided on its aggregate, so a repeat (a retried reaction) decides nothing.

const LeaseRow = z.object({ lease_id: z.string(), facility_id: z.string().nullable(), lock_ids: z.array(z.string()) });

/** The renter's active leases, with their unit's facility and the locks on the unit (read model). */
export async function activeLeasesOf(pool: DatabasePool, customerId: string) {
  return pool.any(sql.type(LeaseRow)`
    SELECT l.id::text AS lease_id, u.facility_id::text AS facility_id,
           COALESCE(array_agg(k.id::text ORDER BY k.id) FILTER (WHERE k.id IS NOT NULL), '{}') AS lock_ids
    FROM leases l
    LEFT JOIN units u ON u.id = l.unit_id
    LEFT JOIN locks k ON k.unit_id = l.unit_id
    WHERE l.customer_id = ${customerId} AND l.is_active
    GROUP BY l.id, u.facility_id
    ORDER BY l.id`);
}

export type AccessChange = { leases: number; locks: number; eventsWritten: number };

async function setLocks(ctx: CommandContext, lockIds: readonly string[], customerId: string, desired: LockDesiredState, reason: string) {
  let written = 0;
  for (const lockId of lockIds) written += (await changeDesiredLockState(ctx, lockId, { desired, customerId, reason })).events.length;
  return written;
}

/** Suspends the renter's gate codes and overlocks the locks on their units. */
export async function lockOutRenter(ctx: CommandContext, pool: DatabasePool, customerId: string, reason: string): Promise<AccessChange> {
  const leases = await activeLeasesOf(pool, customerId);
  let eventsWritten = 0;
  for (const lease of leases) {
    // A lease whose move-in code is not assigned yet (its reaction is behind) gets it now, suspended.
    eventsWritten += (await assignMoveInGateCode(ctx, { leaseId: lease.lease_id, customerId, facilityId: lease.facility_id })).events.length;
    eventsWritten += (await suspendLeaseGateCode(ctx, lease.lease_id, 'lockout')).events.length;
    eventsWritten += await setLocks(ctx, lease.lock_ids, customerId, 'overlocked', reason);
  }
  return { leases: leases.length, locks: leases.reduce((n, l) => n + l.lock_ids.length, 0), eventsWritten };
}

/** Reinstates the codes a lockout suspended and sets the locks on the renter's units back to normal. */
export async function restoreRenterAccess(ctx: CommandContext, pool: DatabasePool, customerId: string, reason: string): Promise<AccessChange> {
  const leases = await activeLeasesOf(pool, customerId);
  let eventsWritten = 0;
  for (const lease of leases) {
    eventsWritten += (await reinstateLeaseGateCode(ctx, lease.lease_id, reason)).events.length;
    eventsWritten += await setLocks(ctx, lease.lock_ids, customerId, 'normal', reason);
  }
  return { leases: leases.length, locks: leases.reduce((n, l) => n + l.lock_ids.length, 0), eventsWritten };
}
