import { LIVE_PATH, liveness, READY_PATH, readiness } from '@storage/platform/health';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';

const Check = z.object({ ok: z.boolean(), error: z.string().optional().describe('Why the check failed (never data)') });
const Readiness = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({
    database: Check,
    eventStore: Check,
    queue: Check,
    projectorLag: Check.extend({
      eventsBehind: z.number().int().optional(),
      eventsBehindAtLeast: z.boolean().optional(),
      secondsBehind: z.number().optional(),
      maxSecondsBehind: z.number().optional(),
    }),
    reactions: Check.extend({
      failingReactions: z
        .array(
          z.object({
            reaction: z.string(),
            eventType: z.string(),
            attempts: z.number().int(),
            failingSince: z.string(),
            nextAttemptAt: z.string(),
          }),
        )
        .optional()
        .describe('Processes acting on events that failed on one and retry it with a growing delay'),
    }),
  }),
  failing: z.array(z.string()).describe('The names of the checks that failed'),
});

/**
 * GET /api/health/live and /api/health/ready: public (no session), no rate limit, no personal
 * data. Ready checks the database, the event store, the queue backend and the projector's lag,
 * answering 503 and naming what failed. The embedded `npm start` runs the projector in this
 * process, so these answers cover it too.
 */
export async function healthRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Health', access: 'public' });

  app.get(
    LIVE_PATH,
    {
      schema: {
        summary: 'Liveness',
        description: 'The process answers.',
        response: { 200: json('Live', z.object({ status: z.literal('live'), uptimeSeconds: z.number().int() })) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(liveness()),
  );

  app.get(
    READY_PATH,
    {
      schema: {
        summary: 'Readiness',
        description: "Every dependency answers and the read model is not too far behind the event store (the projector's lag).",
        response: { 200: json('Ready', Readiness), 503: json('Not ready: `failing` names the checks that failed', Readiness) },
      },
    },
    async (_request, reply) => {
      const result = await readiness({ pool: deps.pool, store: deps.store, queue: deps.readModelJobs });
      return reply
        .status(result.status === 'ready' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(result);
    },
  );
}
