import type { Facility } from '@storage/contracts/facilities';
import type { FastifyInstance } from 'fastify';
import { sql } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';

const FacilityRow = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  phone: z.string().nullable(),
  manager_name: z.string().nullable(),
  total_units: z.number(),
  occupied_units: z.number(),
});

export async function facilityRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/facilities', async (): Promise<Facility[]> => {
    const rows = await deps.pool.any(sql.type(FacilityRow)`
      SELECT id::text, name, address, phone, manager_name, total_units, occupied_units FROM facilities ORDER BY name`);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      address: r.address,
      phone: r.phone,
      managerName: r.manager_name,
      totalUnits: r.total_units,
      occupiedUnits: r.occupied_units,
    }));
  });
}
