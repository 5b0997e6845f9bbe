import type { StaffRole } from '@storage/contracts/enums';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Access } from './access.ts';

/**
 * The routes of one area of the API, typed by their zod schemas (the handler gets the parsed
 * request), under one tag in the reference, and by default callable by the same callers (a
 * route may say otherwise in its config).
 */
export function routeGroup(app: FastifyInstance, group: { tag: string; access: Access; roles?: readonly StaffRole[] }) {
  app.addHook('onRoute', (route) => {
    route.config = { access: group.access, ...(group.roles ? { roles: group.roles } : {}), ...route.config };
    route.schema = { tags: [group.tag], ...route.schema };
  });
  return app.withTypeProvider<ZodTypeProvider>();
}
