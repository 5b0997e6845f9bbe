import { type ReadModelJob, ReadModelJobKind, ReadModelJobParams, ReadModelJobResult } from '@storage/contracts/read-model';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { Job } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';

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

export async function readModelRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  const owners = { preHandler: requireRole('owner') };

  for (const kind of ReadModelJobKind.options) {
    app.post(`/api/read-model/${kind}`, owners, async (_request, reply) => {
      const job = await deps.readModelJobs.add(kind, {}, KEEP);
      return reply.code(202).send(describeJob(job, 'waiting'));
    });
  }

  app.get('/api/read-model/jobs/:id', owners, async (request) => {
    const { id } = parseInput(ReadModelJobParams, request.params, 'params');
    // The state first, then the job: a job read as finished has its result or reason with it
    // (the queue sets both at once), whereas a job read first may finish before its state is.
    const state = await deps.readModelJobs.getJobState(id);
    const job = await deps.readModelJobs.getJob(id);
    if (!job || !ReadModelJobKind.safeParse(job.name).success) throw new NotFoundError('No such read-model job');
    return describeJob(job, state);
  });
}
