import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export async function unitRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  void deps;
}
