import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export async function publicRoutes(app: FastifyInstance, deps: AppDeps) {
  void app;
  void deps;
}
