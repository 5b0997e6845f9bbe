import type { Queue } from 'bullmq';

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
