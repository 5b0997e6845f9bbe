import type { EventStore } from '@storage/eventstore/port';
import { startBusinessClock } from '@storage/platform/business-clock';
import type { MessageSettings, ScheduleSettings } from '@storage/platform/config';
import { configuredMailer } from '@storage/platform/mail/smtp';
import type { PaymentSettings } from '@storage/platform/payments/configured-provider';
import { createQueue, createWorker, type QueueConnection } from '@storage/platform/queues';
import { CATCH_UP_JOB, coalesced, PROJECTOR_QUEUE, registerLocalProjector } from '@storage/platform/wakeups';
import type { Queue } from 'bullmq';
import type { DatabasePool } from 'slonik';
import { startReadModelJobs } from './jobs/read-model.ts';
import { startScheduledJobs } from './jobs/scheduler.ts';
import { setMessagesPublicUrl } from './outbox/settings.ts';
import { type OutboxPolicy, startOutboxWorker } from './outbox/worker.ts';
import type { Projection } from './projection.ts';
import { readModelProjections } from './projections.ts';
import { reactions as allReactions } from './reactions/index.ts';
import type { Reaction } from './reactions/reaction.ts';
import { ensureReactionCheckpoints, reactionsWanted, runReactions } from './reactions/runner.ts';
import { catchUpReporting, ensureCheckpoints, type RetryPolicy } from './runner.ts';

/** The reactions run at most this often; access follows a payment within it (target: seconds). */
const REACTION_INTERVAL_MS = 100;

/** The safety net: a wake-up lost anywhere is made good within this. */
const SAFETY_NET_MS = 3000;

/**
 * A catch-up that found events committed but not yet readable (an older transaction of the
 * database still open: a session's sign-in, a reaction's checkpoint, a queue job's row) runs again
 * after this, doubling while they stay held, up to HELD_BACK_MAX_MS: that transaction's end wakes
 * nobody, and a command waiting to read its own write (2 s at most) must not wait for the safety net.
 */
const HELD_BACK_FIRST_MS = 5;
const HELD_BACK_MAX_MS = 200;

/**
 * A wake-up for when the first failing projection is due to be tried again (the safety net
 * alone would round a 1 s backoff up to 3 s). One job per due time: asking twice adds nothing,
 * and a due time already asked for by this process is not asked for again.
 */
function nextAttemptWaker(queue: Queue): (due: number | null) => Promise<void> {
  let asked: number | null = null;
  return async (due) => {
    if (due === null || due === asked) return;
    await queue.add(CATCH_UP_JOB, {}, { jobId: `retry-${due}`, delay: Math.max(0, due - Date.now()), removeOnComplete: true, removeOnFail: 100 });
    asked = due;
  };
}

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
  /** The processes that act on events after the read model (default: every one, projector/src/reactions). */
  reactions?: Reaction[];
  /** How a projection failing on an event is retried (default: after 1 s, doubling up to 5 min). */
  retry?: RetryPolicy;
  /** The configuration's mail server, sender and public address (none: the development adapter, links to 127.0.0.1:3000). */
  messages?: Partial<MessageSettings>;
  /** How often the queue wakes the projector in case a wake-up was lost (default 3 s). */
  safetyNetMs?: number;
  /** How the outbox worker retries (tests shorten it). */
  outbox?: Partial<OutboxPolicy>;
  log?: (message: string, error?: unknown) => void;
}): Promise<ProjectorService> {
  const projections = options.projections ?? readModelProjections;
  const safetyNetMs = options.safetyNetMs ?? SAFETY_NET_MS;
  const reactions = options.reactions ?? allReactions;
  await ensureCheckpoints(options.pool, projections);
  await ensureReactionCheckpoints(options.pool, options.store, reactions);
  // The processes act on the business day (a demo advanced with billing:run --date is on that day).
  const clock = await startBusinessClock(options.store);
  const queue = createQueue(PROJECTOR_QUEUE, options.connection);
  // One catch-up at a time in this process, whoever asks: the queue's job, an API in this process
  // (straight, no job), or a reaction that appended. Asked while it runs, it runs once more after.
  // The reactions run in a loop of their own right after, so the next catch-up (what commands
  // wait for) never waits for them.
  let stopped = false;
  let lastRun: Promise<void> = Promise.resolve();
  let lastReaction: Promise<void> = Promise.resolve();
  let reactionsDue = true;
  let reactedAt = 0;
  const reactOnce = coalesced(async () => {
    reactedAt = Date.now();
    // Then the processes that act on what the read model now shows; what they append wakes the
    // projector again, so a chain (a payment clears a delinquency, which restores access) runs on.
    const acted = await runReactions(reactions, { pool: options.pool, store: options.store, log: options.log, retry: options.retry, now: clock.now });
    reactionsDue = acted.more || acted.failing.length > 0;
    if (acted.reacted > 0 || acted.more) wake();
  });
  // At most one reactions run per REACTION_INTERVAL_MS: under a steady trickle of commands each
  // catch-up applies an event or two, and five reactions' look at them is 25 statements.
  let reactionTimer: NodeJS.Timeout | null = null;
  const react = () => {
    if (stopped || reactionTimer) return;
    reactionTimer = setTimeout(
      () => {
        reactionTimer = null;
        if (!stopped) lastReaction = reactOnce().catch((error) => options.log?.('reactions failed; they will be retried', error));
      },
      Math.max(0, reactedAt + REACTION_INTERVAL_MS - Date.now()),
    );
  };
  const wakeForNextAttempt = nextAttemptWaker(queue);
  let heldBackTimer: NodeJS.Timeout | null = null;
  let heldBackDelay = HELD_BACK_FIRST_MS;
  const catchUpOnce = coalesced(async () => {
    const caughtUp = await catchUpReporting(options.pool, options.store, projections, { retry: options.retry, log: options.log });
    if (!caughtUp.heldBack) heldBackDelay = HELD_BACK_FIRST_MS;
    else if (!heldBackTimer && !stopped) {
      heldBackTimer = setTimeout(() => {
        heldBackTimer = null;
        wake();
      }, heldBackDelay);
      heldBackDelay = Math.min(heldBackDelay * 2, HELD_BACK_MAX_MS);
    }
    await wakeForNextAttempt(caughtUp.nextAttemptAt);
    // Nothing new they follow: the reactions have nothing to act on, unless they have more to do or a
    // retry due, or another process applied what they follow (both looked at with the safety net's pace).
    if (reactionsWanted(reactions, caughtUp.types, { due: reactionsDue, msSinceLastRun: Date.now() - reactedAt, paceMs: safetyNetMs })) react();
  });
  const run = () => {
    const running = catchUpOnce();
    lastRun = running.catch(() => {});
    return running;
  };
  const wake = () => {
    if (!stopped) run().catch((error) => options.log?.('projector catch-up failed; it will be retried', error));
  };
  const worker = createWorker(PROJECTOR_QUEUE, options.connection, async () => {
    if (!stopped) await run();
  });
  worker.on('failed', (_job, error) => options.log?.('projector catch-up failed; it will be retried', error));
  worker.on('error', (error) => options.log?.('projector worker error', error));
  await queue.upsertJobScheduler('projector-safety-net', { every: safetyNetMs }, { name: CATCH_UP_JOB });
  const unregister = registerLocalProjector(options.connection, wake);
  wake();
  const scheduledJobs = await startScheduledJobs({ ...options, clock, wakeProjector: async () => wake() });
  const readModelJobs = startReadModelJobs(options);
  if (options.messages?.publicUrl) setMessagesPublicUrl(options.messages.publicUrl);
  const outbox = startOutboxWorker({
    pool: options.pool,
    store: options.store,
    mailer: configuredMailer(options.messages ?? {}),
    policy: options.outbox,
    log: options.log,
  });
  return {
    async stop() {
      stopped = true;
      if (reactionTimer) clearTimeout(reactionTimer);
      if (heldBackTimer) clearTimeout(heldBackTimer);
      unregister();
      // Each worker ends its job in hand and its wait for the next on its own: together, not one
      // after another (a worker's close waits out its fetch, about 0.1 s each).
      await Promise.all([outbox.stop(), readModelJobs.close(), scheduledJobs.stop(), worker.close()]);
      clock.stop();
      await lastRun;
      await lastReaction;
      await queue.close();
    },
  };
}
