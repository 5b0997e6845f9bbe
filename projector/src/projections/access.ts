import { defineProjection } from '../projection.ts';
import type { ReadModelSession } from '../read-model-session.ts';
import type { RowOf } from '../read-model-tables.ts';

type Change = Omit<RowOf<'gateway_changes'>, 'id' | 'facility_id' | 'sequence' | 'recorded_at'>;

/** Numbers the change in its facility's order (the history's): a rebuild numbers it the same. */
async function addChange(rows: ReadModelSession, id: string, facilityId: string | null, change: Change, at: string) {
  if (!facilityId) return;
  const sequence = ((await rows.get('gateway_sequences', facilityId))?.last_sequence ?? 0) + 1;
  rows.insert('gateway_sequences', { facility_id: facilityId, last_sequence: sequence });
  rows.insert('gateway_changes', { id, facility_id: facilityId, sequence, recorded_at: at, ...change });
}

const codeChange = (row: RowOf<'gate_codes'>): Change => ({
  kind: 'gate_code',
  lock_id: null,
  desired: null,
  lease_id: row.lease_id,
  active: row.status === 'active',
});

// Gate codes (their status: the code is a secret that stays in its stream), the changes each facility's gateway learns (numbered per facility), and the access
// attempts gateways report. Runs after leases and locks: it reads the lease's unit and the lock's
// facility as of the event.
export const accessProjection = defineProjection({
  name: 'access',
  tables: ['gate_codes', 'gateway_sequences', 'gateway_changes', 'access_attempts'],
  reads: ['leases', 'units', 'locks'],
  canHandle: ['access_attempted', 'gate_code_activated', 'gate_code_assigned', 'gate_code_reinstated', 'gate_code_suspended', 'lock_desired_state_changed'],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'gate_code_assigned': {
        const d = event.data;
        const existing = await rows.get('gate_codes', d.leaseId);
        const lease = await rows.get('leases', d.leaseId);
        const unit = await rows.get('units', lease?.unit_id);
        const row: RowOf<'gate_codes'> = existing
          ? { ...existing, updated_at: at }
          : {
              lease_id: d.leaseId,
              customer_id: d.customerId,
              facility_id: d.facilityId ?? unit?.facility_id ?? null,
              unit_id: lease?.unit_id ?? null,
              status: d.awaitingSignature ? 'suspended' : 'active',
              suspended_reason: d.awaitingSignature ? 'unsigned' : null,
              assigned_at: at,
              updated_at: at,
            };
        rows.insert('gate_codes', row);
        await addChange(rows, event.id, row.facility_id, codeChange(row), at);
        return;
      }
      case 'gate_code_suspended':
      case 'gate_code_reinstated': {
        const suspended = event.type === 'gate_code_suspended';
        const row = await rows.update('gate_codes', event.data.leaseId, {
          status: suspended ? 'suspended' : 'active',
          suspended_reason: event.type === 'gate_code_suspended' ? event.data.reason : null,
          updated_at: at,
        });
        if (row) await addChange(rows, event.id, row.facility_id, codeChange(row), at);
        return;
      }
      case 'gate_code_activated': {
        // Opens the gate only if nothing but the signature held it.
        const held = await rows.get('gate_codes', event.data.leaseId);
        if (held?.suspended_reason !== 'unsigned') return;
        const row = await rows.update('gate_codes', event.data.leaseId, { status: 'active', suspended_reason: null, updated_at: at });
        if (row) await addChange(rows, event.id, row.facility_id, codeChange(row), at);
        return;
      }
      case 'lock_desired_state_changed': {
        const d = event.data;
        const lock = await rows.get('locks', d.lockId);
        const change: Change = { kind: 'lock', lock_id: d.lockId, desired: d.desired, lease_id: null, active: null };
        await addChange(rows, event.id, lock?.facility_id ?? null, change, at);
        return;
      }
      case 'access_attempted': {
        const d = event.data;
        const lock = await rows.get('locks', d.lockId);
        const lease = lock ? undefined : await rows.get('leases', d.leaseId);
        const unit = lease ? await rows.get('units', lease.unit_id) : undefined;
        rows.insert('access_attempts', {
          id: d.attemptId,
          facility_id: d.facilityId,
          lock_id: d.lockId,
          unit_number: lock?.unit_number ?? unit?.unit_number ?? null,
          lease_id: d.leaseId,
          customer_id: d.customerId,
          via: d.via,
          granted: d.granted,
          reason: d.reason,
          attempted_at: d.at,
        });
        return;
      }
    }
  },
});
