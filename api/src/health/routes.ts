import { LIVE_PATH, liveness, READY_PATH, readiness } from '@storage/platform/health';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

/**
 * GET /api/health/live and /api/health/ready: public (no session), no rate limit, no personal
 * data. Ready checks the database, the event store, the queue backend and the projector's lag,
 * answering 503 and naming what failed. The embedded `npm start` runs the projector in this
 * process, so these answers cover it too.
 */
export async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(LIVE_PATH, async (_request, reply) => reply.header('cache-control', 'no-store').send(liveness()));

  app.get(READY_PATH, async (_request, reply) => {
    const result = await readiness({ pool: deps.pool, store: deps.store, queue: deps.readModelJobs });
    return reply
      .status(result.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(result);
  });
}
