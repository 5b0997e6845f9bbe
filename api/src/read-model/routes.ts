import {
  ReadModelFailure,
  ReadModelJob,
  ReadModelJobData,
  ReadModelJobKind,
  ReadModelJobParams,
  ReadModelJobResult,
  RebuildReadModelRequest,
} from '@storage/contracts/read-model';
import { NotFoundError } from '@storage/domain/commands/errors';
import { failedProjections } from '@storage/platform/checkpoints';
import type { Job } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { sql } from 'slonik';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';

// Owners rebuild or verify the read model from Settings; the projector process runs the job.

/** Finished jobs kept for their progress page. */
const KEEP = { removeOnComplete: 20, removeOnFail: 20 };

function describeJob(job: Job, state: string): ReadModelJob {
  const result = ReadModelJobResult.safeParse(job.returnvalue);
  const data = ReadModelJobData.safeParse(job.data);
  return {
    id: job.id!,
    kind: ReadModelJobKind.parse(job.name),
    projection: (data.success ? data.data.projection : undefined) ?? null,
    state: state === 'completed' || state === 'failed' || state === 'active' ? state : 'waiting',
    eventsApplied: typeof job.progress === 'number' ? job.progress : 0,
    result: state === 'completed' && result.success ? result.data : null,
    error: state === 'failed' ? job.failedReason : null,
  };
}

export async function readModelRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Read model', access: 'staff', roles: ['owner'] });

  app.post(
    '/api/read-model/rebuild',
    {
      schema: {
        summary: 'Rebuild the read model',
        description:
          'Queues a job that replays every event into fresh read tables and swaps them in: all of them, or those of the projection the body names ' +
          '(after a release that fixes a failing projection). The body may be left out.',
        body: RebuildReadModelRequest.prefault({}),
        response: { 202: json('Queued: follow it at GET /api/read-model/jobs/{id}', ReadModelJob) },
      },
    },
    async (request, reply) => {
      const { projection } = request.body;
      // The projector keeps a checkpoint for each projection it runs: a name without one is none of them.
      if (projection !== undefined) {
        const known = await deps.pool.oneFirst(
          sql.type(z.object({ known: z.boolean() }))`SELECT EXISTS (SELECT 1 FROM projection_checkpoints WHERE name = ${projection}) AS known`,
        );
        if (!known) throw new NotFoundError(`No projection is named ${projection}`);
      }
      const data: ReadModelJobData = projection === undefined ? {} : { projection };
      const job = await deps.readModelJobs.add('rebuild', data, KEEP);
      return reply.code(202).send(describeJob(job, 'waiting'));
    },
  );

  app.post(
    '/api/read-model/verify',
    {
      schema: {
        summary: 'Verify the read model',
        description: 'Queues a job that rebuilds the read tables aside and lists how they differ from the live ones.',
        response: { 202: json('Queued: follow it at GET /api/read-model/jobs/{id}', ReadModelJob) },
      },
    },
    async (_request, reply) => {
      const job = await deps.readModelJobs.add('verify', {}, KEEP);
      return reply.code(202).send(describeJob(job, 'waiting'));
    },
  );

  app.get(
    '/api/read-model/failures',
    {
      schema: {
        summary: 'The projections failing on an event',
        description:
          'Each projection that failed on an event and waits to try it again, with the event, the error, its attempts and the projections it holds ' +
          'there (those reading its tables). Empty when none fails. The public health answer names the same without the error.',
        response: { 200: json('The failing projections, the longest failing first', z.array(ReadModelFailure)) },
      },
    },
    async () =>
      (await failedProjections(deps.pool)).map(
        (f): ReadModelFailure => ({
          projection: f.projection,
          eventId: f.eventId,
          eventType: f.eventType,
          position: `${f.position.hi}/${f.position.lo}`,
          error: f.error,
          attempts: f.attempts,
          failingSince: f.firstFailedAt,
          lastFailedAt: f.lastFailedAt,
          nextAttemptAt: f.nextAttemptAt,
          holds: f.holds,
        }),
      ),
  );

  app.get(
    '/api/read-model/jobs/:id',
    {
      schema: {
        summary: 'A read-model job',
        description: 'Its state and progress, and its result once done.',
        params: ReadModelJobParams,
        response: { 200: json('The job', ReadModelJob) },
      },
    },
    async (request) => {
      const { id } = request.params;
      // The state first, then the job: a job read as finished has its result or reason with it
      // (the queue sets both at once), whereas a job read first may finish before its state is.
      const state = await deps.readModelJobs.getJobState(id);
      const job = await deps.readModelJobs.getJob(id);
      if (!job || !ReadModelJobKind.safeParse(job.name).success) throw new NotFoundError('No such read-model job');
      return describeJob(job, state);
    },
  );
}
