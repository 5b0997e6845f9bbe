import type { Projection } from '../projection.ts';

export const staffProjection: Projection = {
  name: 'staff',
  tables: ['staff'],
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
          password_hash: d.passwordHash,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      case 'staff_password_changed':
        await rows.update('staff', event.data.staffId, { password_hash: event.data.passwordHash, updated_at: at });
        return;
    }
  },
};
