import type { Queue } from 'bullmq';
import type { QueueConnection } from './queues.ts';

// The projector's wake-up protocol, shared by who appends (the API) and who projects.
export const PROJECTOR_QUEUE = 'projector';
export const CATCH_UP_JOB = 'catch-up';

/**
 * Asks the projector to catch up. BullMQ never carries events, only this wake-up; it is
 * deduplicated, and one that arrives while a catch-up runs is kept for right after it.
 */
export async function wakeProjector(queue: Queue): Promise<void> {
  await queue.add(
    CATCH_UP_JOB,
    {},
    {
      deduplication: { id: CATCH_UP_JOB, keepLastIfActive: true },
      removeOnComplete: true,
      removeOnFail: 100,
    },
  );
}

/**
 * `task` run at most once at a time: a call while it runs is answered by one more run right after
 * it (shared by every call made meanwhile), since the running one may have started before what
 * the caller wants it to see. Each call resolves when a run that began after the call has ended.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const run = task().finally(() => {
      if (current === run) current = null;
    });
    current = run;
    return run;
  };
  return () => {
    if (!current) return start();
    next ??= current
      .catch(() => {})
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

/** The projectors running in this process, by the queue they take wake-ups from. */
const localProjectors = new Map<string, () => void>();

const queueKey = (connection: QueueConnection) =>
  connection.kind === 'redis' ? `redis ${connection.url} ${connection.prefix ?? ''}` : `postgres ${connection.url}`;

/**
 * A projector in this process takes its wake-ups straight from those who append in it (no queue
 * round trip); the queue still brings those of other processes and the safety net. Returns the
 * way to take it back.
 */
export function registerLocalProjector(connection: QueueConnection, wake: () => void): () => void {
  const key = queueKey(connection);
  localProjectors.set(key, wake);
  return () => {
    if (localProjectors.get(key) === wake) localProjectors.delete(key);
  };
}

/**
 * How an appender wakes the projector of `connection`: directly when it runs in this process,
 * otherwise through the queue with at most one `queue.add` in flight (a wake-up already pending
 * needs no new job).
 */
export function projectorWaker(queue: Queue, connection: QueueConnection): () => Promise<void> {
  const addJob = coalesced(() => wakeProjector(queue));
  return async () => {
    const local = localProjectors.get(queueKey(connection));
    if (local) local();
    else await addJob();
  };
}
