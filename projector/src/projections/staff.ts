import { sql } from 'slonik';
import type { Projection } from '../projection.ts';

export const staffProjection: Projection = {
  name: 'staff',
  tables: ['staff'],
  async apply(tx, event) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'staff_registered': {
        const d = event.data;
        await tx.query(sql.unsafe`
          INSERT INTO staff (id, email, first_name, last_name, role, password_hash, created_at, updated_at)
          VALUES (${d.staffId}, ${d.email}, ${d.firstName}, ${d.lastName}, ${d.role}, ${d.passwordHash}, ${at}, ${at})`);
        return;
      }
      case 'staff_password_changed':
        await tx.query(sql.unsafe`UPDATE staff SET password_hash = ${event.data.passwordHash}, updated_at = ${at} WHERE id = ${event.data.staffId}`);
        return;
    }
  },
};
