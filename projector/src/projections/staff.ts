import { defineProjection } from '../projection.ts';

export const staffProjection = defineProjection({
  name: 'staff',
  tables: ['staff'],
  canHandle: [
    'staff_deactivated',
    'staff_password_changed',
    'staff_reactivated',
    'staff_registered',
    'staff_role_changed',
    'staff_two_factor_disabled',
    'staff_two_factor_enabled',
    'staff_two_factor_reset',
  ],
  async apply(rows, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'staff_registered': {
        const d = event.data;
        rows.insert('staff', {
          id: d.staffId,
          email: d.email,
          first_name: d.firstName,
          last_name: d.lastName,
          role: d.role,
          credential_id: d.credentialId,
          two_factor_id: null,
          status: 'active',
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'staff_password_changed':
        await rows.update('staff', event.data.staffId, { credential_id: event.data.credentialId, updated_at: at });
        return;
      case 'staff_role_changed':
        await rows.update('staff', event.data.staffId, { role: event.data.role, updated_at: at });
        return;
      case 'staff_deactivated':
        await rows.update('staff', event.data.staffId, { status: 'deactivated', updated_at: at });
        return;
      case 'staff_reactivated':
        await rows.update('staff', event.data.staffId, { status: 'active', updated_at: at });
        return;
      case 'staff_two_factor_enabled':
        await rows.update('staff', event.data.staffId, { two_factor_id: event.data.factorId, updated_at: at });
        return;
      case 'staff_two_factor_disabled':
      case 'staff_two_factor_reset':
        await rows.update('staff', event.data.staffId, { two_factor_id: null, updated_at: at });
        return;
    }
  },
});
