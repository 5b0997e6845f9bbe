import type { GateCode, GatewayChange } from '@storage/contracts/access';
import { LockDesiredState } from '@storage/contracts/enums';
import { currentGateCodes } from '@storage/domain/access/gate-codes';
import type { EventStore } from '@storage/eventstore/port';
import { type CommonQueryMethods, sql } from 'slonik';
import { z } from 'zod';

const GateCodeRow = z.object({
  lease_id: z.string(),
  customer_id: z.string(),
  unit_id: z.string().nullable(),
  unit_number: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
  suspended_reason: z.enum(['lockout', 'move_out', 'unsigned']).nullable(),
  assigned_at: z.string(),
  updated_at: z.string(),
});

const gateCodeColumns = sql.fragment`
  g.lease_id::text, g.customer_id::text, g.unit_id::text, u.unit_number, g.status, g.suspended_reason, g.assigned_at, g.updated_at`;

/** The rows with their codes, read from the codes' streams (no read table holds a code). */
async function withCodes(store: EventStore, rows: readonly z.infer<typeof GateCodeRow>[]): Promise<GateCode[]> {
  const codes = await currentGateCodes(
    store,
    rows.map((r) => r.lease_id),
  );
  return rows.flatMap((r) => {
    const code = codes.get(r.lease_id)?.code;
    return code === undefined ? [] : [toGateCode(r, code)];
  });
}

function toGateCode(r: z.infer<typeof GateCodeRow>, code: string): GateCode {
  return {
    leaseId: r.lease_id,
    customerId: r.customer_id,
    unitId: r.unit_id,
    unitNumber: r.unit_number,
    code,
    status: r.status,
    suspendedReason: r.suspended_reason,
    assignedAt: r.assigned_at,
    updatedAt: r.updated_at,
  };
}

/** A renter's gate codes, those of their active leases first. */
export async function listGateCodes(db: CommonQueryMethods, store: EventStore, customerId: string): Promise<GateCode[]> {
  const rows = await db.any(sql.type(GateCodeRow)`
    SELECT ${gateCodeColumns} FROM gate_codes g LEFT JOIN units u ON u.id = g.unit_id
    WHERE g.customer_id = ${customerId}
    ORDER BY (g.suspended_reason IS DISTINCT FROM 'move_out') DESC, u.unit_number, g.lease_id`);
  return withCodes(store, rows);
}

export async function getGateCode(db: CommonQueryMethods, store: EventStore, leaseId: string): Promise<GateCode | null> {
  const row = await db.maybeOne(sql.type(GateCodeRow)`
    SELECT ${gateCodeColumns} FROM gate_codes g LEFT JOIN units u ON u.id = g.unit_id WHERE g.lease_id = ${leaseId}`);
  return row ? ((await withCodes(store, [row]))[0] ?? null) : null;
}

const ChangeRow = z.object({
  sequence: z.number(),
  kind: z.enum(['lock', 'gate_code']),
  lock_id: z.string().nullable(),
  desired: LockDesiredState.nullable(),
  lease_id: z.string().nullable(),
  active: z.boolean().nullable(),
});

/** The facility's newest change number (0: none yet). */
export async function gatewaySequence(db: CommonQueryMethods, facilityId: string): Promise<number> {
  const row = await db.maybeOne(sql.type(z.object({ last_sequence: z.number() }))`
    SELECT last_sequence FROM gateway_sequences WHERE facility_id = ${facilityId}`);
  return row?.last_sequence ?? 0;
}

/** The facility's changes after `after`, oldest first, at most `limit`; a lease's code as it is now (a later change may rotate it). */
export async function gatewayChangesAfter(
  db: CommonQueryMethods,
  store: EventStore,
  facilityId: string,
  after: number,
  limit: number,
): Promise<GatewayChange[]> {
  const rows = await db.any(sql.type(ChangeRow)`
    SELECT sequence, kind, lock_id::text, desired, lease_id::text, active FROM gateway_changes
    WHERE facility_id = ${facilityId} AND sequence > ${after}
    ORDER BY sequence LIMIT ${limit}`);
  const codes = await currentGateCodes(
    store,
    rows.flatMap((r) => (r.lease_id ? [r.lease_id] : [])),
  );
  return rows.flatMap((r): GatewayChange[] => {
    if (r.kind === 'lock') return [{ sequence: r.sequence, kind: 'lock', lockId: r.lock_id!, desired: r.desired! }];
    const code = codes.get(r.lease_id!)?.code;
    return code === undefined ? [] : [{ sequence: r.sequence, kind: 'gate_code', leaseId: r.lease_id!, code, active: r.active! }];
  });
}
