import { ReadModelJob, ReadModelJobKind, ReadModelJobParams, ReadModelJobResult } from '@storage/contracts/read-model';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { Job } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';

// Owners rebuild or verify the read model from Settings; the projector process runs the job.

/** Finished jobs kept for their progress page. */
const KEEP = { removeOnComplete: 20, removeOnFail: 20 };

function describeJob(job: Job, state: string): ReadModelJob {
  const result = ReadModelJobResult.safeParse(job.returnvalue);
  return {
    id: job.id!,
    kind: ReadModelJobKind.parse(job.name),
    state: state === 'completed' || state === 'failed' || state === 'active' ? state : 'waiting',
    eventsApplied: typeof job.progress === 'number' ? job.progress : 0,
    result: state === 'completed' && result.success ? result.data : null,
    error: state === 'failed' ? job.failedReason : null,
  };
}

const JOB_SUMMARIES: Record<ReadModelJobKind, { summary: string; description: string }> = {
  rebuild: { summary: 'Rebuild the read model', description: 'Queues a job that replays every event into fresh read tables and swaps them in.' },
  verify: { summary: 'Verify the read model', description: 'Queues a job that rebuilds the read tables aside and lists how they differ from the live ones.' },
};

export async function readModelRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Read model', access: 'staff', roles: ['owner'] });

  for (const kind of ReadModelJobKind.options) {
    app.post(
      `/api/read-model/${kind}`,
      { schema: { ...JOB_SUMMARIES[kind], response: { 202: json('Queued: follow it at GET /api/read-model/jobs/{id}', ReadModelJob) } } },
      async (_request, reply) => {
        const job = await deps.readModelJobs.add(kind, {}, KEEP);
        return reply.code(202).send(describeJob(job, 'waiting'));
      },
    );
  }

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
