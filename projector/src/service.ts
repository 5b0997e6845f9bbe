import type { EventStore } from '@storage/eventstore/port';
import type { ScheduleSettings } from '@storage/platform/config';
import type { PaymentSettings } from '@storage/platform/payments/configured-provider';
import { createQueue, createWorker, type QueueConnection } from '@storage/platform/queues';
import { CATCH_UP_JOB, PROJECTOR_QUEUE, wakeProjector } from '@storage/platform/wakeups';
import type { DatabasePool } from 'slonik';
import { startReadModelJobs } from './jobs/read-model.ts';
import { startScheduledJobs } from './jobs/scheduler.ts';
import type { Projection } from './projection.ts';
import { readModelProjections } from './projections.ts';
import { catchUp, ensureCheckpoints } from './runner.ts';

/** The safety net: a wake-up lost anywhere is made good within this. */
const SAFETY_NET_MS = 3000;

export interface ProjectorService {
  stop(): Promise<void>;
}

export async function startProjector(options: {
  pool: DatabasePool;
  store: EventStore;
  connection: QueueConnection;
  /** The configuration's payment settings (its Stripe keys, or none for the built-in test provider). */
  payments: PaymentSettings;
  /** The configuration's hold and grace periods for the scheduled processes. */
  schedule: ScheduleSettings;
  projections?: Projection[];
  log?: (message: string, error?: unknown) => void;
}): Promise<ProjectorService> {
  const projections = options.projections ?? readModelProjections;
  await ensureCheckpoints(options.pool, projections);
  const worker = createWorker(PROJECTOR_QUEUE, options.connection, async () => {
    await catchUp(options.pool, options.store, projections);
  });
  worker.on('failed', (_job, error) => options.log?.('projector catch-up failed; it will be retried', error));
  worker.on('error', (error) => options.log?.('projector worker error', error));
  const queue = createQueue(PROJECTOR_QUEUE, options.connection);
  await queue.upsertJobScheduler('projector-safety-net', { every: SAFETY_NET_MS }, { name: CATCH_UP_JOB });
  await wakeProjector(queue);
  const scheduledJobs = await startScheduledJobs({ ...options, wakeProjector: () => wakeProjector(queue) });
  const readModelJobs = startReadModelJobs(options);
  return {
    async stop() {
      await readModelJobs.close();
      await scheduledJobs.stop();
      await worker.close();
      await queue.close();
    },
  };
}
