import { activateLeaseGateCode, assignMoveInGateCode, suspendLeaseGateCode } from '@storage/domain/access/gate-codes';
import { lockOutRenter, restoreRenterAccess } from '@storage/domain/access/lockout';
import type { CommandContext } from '@storage/domain/commands/handle';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import type { ProjectedEvent } from '../projection.ts';
import type { Reaction, ReactionDeps } from './reaction.ts';

// Access follows the ledger (ARCHITECTURE.md, "Processes"): a move-in gets its gate code (held
// until the lease is signed where the facility asks for that, and opened by the signature), a
// move-out suspends it, a lockout step suspends the renter's codes and overlocks their units'
// locks, and the delinquency's clearing undoes that. Each step is decided on its aggregate
// (a code already assigned, a lock already overlocked decides nothing), so seeing an event again
// writes nothing twice. One reaction, so a lease's code is assigned before a later lockout of it.

function contextOf(event: ProjectedEvent, deps: ReactionDeps): CommandContext {
  return { store: deps.store, actor: { type: 'system' }, correlationId: event.metadata.correlationId, now: deps.now };
}

const UnitFacility = z.object({ facility_id: z.string().nullable() });

async function facilityOfUnit(pool: DatabasePool, unitId: string): Promise<string | null> {
  return (await pool.maybeOne(sql.type(UnitFacility)`SELECT facility_id::text FROM units WHERE id = ${unitId}`))?.facility_id ?? null;
}

export const accessReaction: Reaction = {
  name: 'access',
  types: ['lease_started', 'lease_signed', 'lease_ended', 'delinquency_step_taken', 'delinquency_cleared'],
  async react(event, deps) {
    const ctx = contextOf(event, deps);
    switch (event.type) {
      case 'lease_started': {
        const { leaseId, customerId, unitId } = event.data;
        const facilityId = event.data.facilityId ?? (await facilityOfUnit(deps.pool, unitId));
        await assignMoveInGateCode(ctx, { leaseId, customerId, facilityId });
        return;
      }
      case 'lease_signed':
        await activateLeaseGateCode(ctx, event.data.leaseId);
        return;
      case 'lease_ended':
        await suspendLeaseGateCode(ctx, event.data.leaseId, 'move_out');
        return;
      case 'delinquency_step_taken': {
        const d = event.data;
        if (d.kind !== 'lockout') return;
        await lockOutRenter(ctx, deps.pool, d.customerId, `Lockout: day ${d.day} after the due date (${d.date})`);
        return;
      }
      case 'delinquency_cleared':
        await restoreRenterAccess(ctx, deps.pool, event.data.customerId, `Access restored: ${event.data.reason}`);
        return;
    }
  },
};
