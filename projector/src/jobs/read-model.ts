import { READ_MODEL_QUEUE, ReadModelJobData, type ReadModelJobResult } from '@storage/contracts/read-model';
import type { EventStore } from '@storage/eventstore/port';
import { createWorker, type QueueConnection } from '@storage/platform/queues';
import type { Worker } from 'bullmq';
import type { DatabasePool } from 'slonik';
import { readModelProjections } from '../projections.ts';
import { projectionsToRebuild, type RebuildProgress, rebuildReadModel } from '../rebuild.ts';
import { describeDifference, verifyReadModel } from '../verify.ts';

/** Runs the rebuilds and verifications owners start from Settings, one at a time. */
export function startReadModelJobs(options: {
  pool: DatabasePool;
  store: EventStore;
  connection: QueueConnection;
  log?: (message: string, error?: unknown) => void;
}): Worker {
  const worker = createWorker(READ_MODEL_QUEUE, options.connection, async (job): Promise<ReadModelJobResult> => {
    const onProgress = ({ eventsApplied }: RebuildProgress) => void job.updateProgress(eventsApplied);
    if (job.name === 'rebuild') {
      // One projection's tables alone, when the owner named one (a failing projection, after a fixed release).
      const { projection } = ReadModelJobData.parse(job.data ?? {});
      const build = await rebuildReadModel(options.pool, options.store, projectionsToRebuild(projection), onProgress);
      return { eventsApplied: build.eventsApplied };
    }
    if (job.name !== 'verify') throw new Error(`Unknown read-model job ${job.name}`);
    const result = await verifyReadModel(options.pool, options.store, readModelProjections, onProgress);
    return { eventsApplied: result.eventsApplied, differences: result.differences.map(describeDifference) };
  });
  worker.on('failed', (job, error) => options.log?.(`read-model ${job?.name ?? ''} failed`, error));
  worker.on('error', (error) => options.log?.('read-model worker error', error));
  return worker;
}
