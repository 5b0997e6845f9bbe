import { runBillingDay } from '@storage/domain/billing/run';
import { reconcilePayments } from '@storage/domain/payments/reconcile';
import type { EventStore } from '@storage/eventstore/port';
import type { ScheduleSettings } from '@storage/platform/config';
import { createPaymentProvider, type PaymentSettings } from '@storage/platform/payments/configured-provider';
import { createQueue, createWorker, type QueueConnection } from '@storage/platform/queues';
import type { Job } from 'bullmq';
import type { DatabasePool } from 'slonik';
import { expireReservations } from './reservation-expiry.ts';
import { recoverWorkflows } from './workflow-recovery.ts';

// Scheduled jobs of the projector process: BullMQ job schedulers, plus one run of each at start
// so a projector that was down at the scheduled time catches up at once.

export const SCHEDULED_JOBS_QUEUE = 'scheduled-jobs';
/** The billing day (domain/src/billing/run.ts): scheduled move-outs done, rent issued, overdue marked, late fees charged, per facility in its zone. */
export const BILLING_DAY_JOB = 'billing-day';
export const EXPIRE_RESERVATIONS_JOB = 'expire-reservations';
export const RECOVER_WORKFLOWS_JOB = 'recover-workflows';
export const RECONCILE_PAYMENTS_JOB = 'reconcile-payments';
/** Every minute: a stopped move-in or reservation is finished or undone, an unreported payment recorded, soon after its grace period. */
const EVERY_MINUTE_PATTERN = '* * * * *';
/** Hourly: a hold ends at the time of day it was submitted. */
const HOURLY_PATTERN = '15 * * * *';
/** How long the start waits for the first run (a large backlog finishes in the background). */
const FIRST_RUN_WAIT_MS = 30_000;

export interface ScheduledJobs {
  stop(): Promise<void>;
}

async function settled(job: Job, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await job.getState();
    // 'unknown': done and removed.
    if (state === 'completed' || state === 'failed' || state === 'unknown' || Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startScheduledJobs(options: {
  pool: DatabasePool;
  store: EventStore;
  connection: QueueConnection;
  /** The configuration's payment settings: the reconciliation asks the same provider the API uses. */
  payments: PaymentSettings;
  /** The configuration's hold and grace periods (RESERVATION_HOLD_DAYS, WORKFLOW_GRACE_SECONDS, PAYMENT_GRACE_SECONDS). */
  schedule: ScheduleSettings;
  /** The business clock: the billing day runs the business day (real-time holds and grace periods keep the wall clock). */
  clock: { now(): Date };
  /** Asks the projector to show what a job appended. */
  wakeProjector(): Promise<void>;
  log?: (message: string, error?: unknown) => void;
}): Promise<ScheduledJobs> {
  const { reservationHoldDays: holdDays, workflowGraceMs: graceMs, paymentGraceMs: paymentGrace, billingSchedule } = options.schedule;
  const provider = createPaymentProvider(options.payments, options.pool);
  const worker = createWorker(SCHEDULED_JOBS_QUEUE, options.connection, async (job) => {
    if (job.name === EXPIRE_RESERVATIONS_JOB) {
      const expiry = await expireReservations(options, new Date(), holdDays);
      if (expiry.position) await options.wakeProjector();
      return { reservationsExpired: expiry.expired };
    }
    if (job.name === RECOVER_WORKFLOWS_JOB) {
      const recovery = await recoverWorkflows(options, new Date(), graceMs);
      if (recovery.position) await options.wakeProjector();
      return { workflowsRecovered: recovery.recovered, ...recovery.actions };
    }
    if (job.name === RECONCILE_PAYMENTS_JOB) {
      const reconciliation = await reconcilePayments({ ...options, provider }, new Date(), paymentGrace);
      if (reconciliation.position) await options.wakeProjector();
      for (const failure of reconciliation.failures) {
        options.log?.(`payment intent ${failure.paymentIntentId} could not be settled; the next run retries it: ${failure.error}`);
      }
      for (const failure of reconciliation.refunds.failures) {
        options.log?.(`refund ${failure.refundId} is still pending; the next run retries it: ${failure.error}`);
      }
      return {
        paymentIntentsChecked: reconciliation.checked,
        ...reconciliation.actions,
        pendingRefundsChecked: reconciliation.refunds.checked,
        pendingRefundsIssued: reconciliation.refunds.issued,
      };
    }
    if (job.name !== BILLING_DAY_JOB) throw new Error(`Unknown scheduled job ${job.name}`);
    const day = await runBillingDay({ ...options, provider }, options.clock.now());
    if (day.position) await options.wakeProjector();
    const total = (key: 'invoicesIssued' | 'lateFeesCharged' | 'invoicesOverdue' | 'customersOverdue' | 'delinquencySteps' | 'delinquencyCleared') =>
      day.runs.reduce((sum, run) => sum + run[key], 0);
    for (const run of day.runs) for (const skip of run.skipped) options.log?.(`billing day ${run.billingDate}: lease ${skip.leaseId} skipped: ${skip.reason}`);
    for (const run of day.runs) {
      for (const skip of run.moveOuts.skipped)
        options.log?.(`billing day ${run.billingDate}: scheduled move-out of lease ${skip.leaseId} refused: ${skip.reason}`);
    }
    for (const run of day.runs) {
      for (const stopped of run.autopay.errors)
        options.log?.(`autopay of invoice ${stopped.invoiceId} on ${run.billingDate} stopped; the next run finishes it: ${stopped.error}`);
    }
    return {
      invoicesIssued: total('invoicesIssued'),
      lateFeesCharged: total('lateFeesCharged'),
      invoicesOverdue: total('invoicesOverdue'),
      customersOverdue: total('customersOverdue'),
      delinquencySteps: total('delinquencySteps'),
      delinquencyCleared: total('delinquencyCleared'),
      leasesMovedOut: day.runs.reduce((sum, run) => sum + run.moveOuts.movedOut, 0),
    };
  });
  worker.on('failed', (job, error) => options.log?.(`scheduled job ${job?.name ?? ''} failed; it runs again at its next time`, error));
  worker.on('error', (error) => options.log?.('scheduled jobs worker error', error));
  const queue = createQueue(SCHEDULED_JOBS_QUEUE, options.connection);
  const keep = { removeOnComplete: 50, removeOnFail: 50 };
  // The daily overdue job of earlier releases is now part of the billing day.
  await queue.removeJobScheduler('mark-overdue-invoices-daily');
  // BILLING_SCHEDULE (hourly by default: each facility's day begins within the hour after its
  // midnight, whatever its zone); off: the billing day runs only by hand (ops billing:run).
  if (billingSchedule)
    await queue.upsertJobScheduler(`${BILLING_DAY_JOB}-hourly`, { pattern: billingSchedule, tz: 'UTC' }, { name: BILLING_DAY_JOB, opts: keep });
  else await queue.removeJobScheduler(`${BILLING_DAY_JOB}-hourly`);
  await queue.upsertJobScheduler(`${EXPIRE_RESERVATIONS_JOB}-hourly`, { pattern: HOURLY_PATTERN, tz: 'UTC' }, { name: EXPIRE_RESERVATIONS_JOB, opts: keep });
  await queue.upsertJobScheduler(
    `${RECOVER_WORKFLOWS_JOB}-every-minute`,
    { pattern: EVERY_MINUTE_PATTERN, tz: 'UTC' },
    { name: RECOVER_WORKFLOWS_JOB, opts: keep },
  );
  await queue.upsertJobScheduler(
    `${RECONCILE_PAYMENTS_JOB}-every-minute`,
    { pattern: EVERY_MINUTE_PATTERN, tz: 'UTC' },
    { name: RECONCILE_PAYMENTS_JOB, opts: keep },
  );
  // Waited for, so that what starts next (a demo seed, a test) does not race the first run. Queued
  // together and waited for together: the worker runs them one after another in this order either
  // way, and a wait for each before queuing the next added a look's delay per job to every start.
  const firstRuns = [...(billingSchedule ? [BILLING_DAY_JOB] : []), EXPIRE_RESERVATIONS_JOB, RECOVER_WORKFLOWS_JOB, RECONCILE_PAYMENTS_JOB];
  const queued: Job[] = [];
  for (const name of firstRuns) queued.push(await queue.add(name, {}, keep));
  await Promise.all(queued.map((job) => settled(job, FIRST_RUN_WAIT_MS)));
  return {
    async stop() {
      await worker.close();
      await queue.close();
    },
  };
}
