import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export async function leaseRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  void deps;
}
