import { READ_MODEL_QUEUE } from '@storage/contracts/read-model';
import { listEarlierInvoices } from '@storage/domain/accounts/invoice-listing';
import { listEarlierLeases } from '@storage/domain/customers/lease-listing';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type BusinessClock, startBusinessClock } from '@storage/platform/business-clock';
import { ProjectionProgress } from '@storage/platform/checkpoints';
import type { Config } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { configuredMailer } from '@storage/platform/mail/smtp';
import { migrateReadModel } from '@storage/platform/migrate';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { PROJECTOR_QUEUE, projectorWaker } from '@storage/platform/wakeups';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app.ts';

export interface ApiServer {
  app: FastifyInstance;
  pool: DatabasePool;
  store: EventStore;
  /** The business clock the API's commands and reports run on. */
  clock: BusinessClock;
  /** Wakes the projector and waits (bounded) until the read model has passed `position`. */
  afterAppend(position: Position, timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Builds the API on the configured database, event store and queue backend. */
export async function createApiServer(options: {
  config: Config;
  databaseUrl: string;
  sessionKey: Buffer;
  staticRoots?: { console: string; portal: string };
  logger?: boolean | object;
  /** Keeps the queues of deployments (or test runs) sharing one Redis apart. */
  queuePrefix?: string;
}): Promise<ApiServer> {
  const { config, databaseUrl } = options;
  const pool = await createDatabasePool(databaseUrl);
  await migrateReadModel(databaseUrl);
  const store = await connectEventStore({ eventStoreUrl: config.eventStoreUrl, databaseUrl });
  // Before any command: the money commands decide on the invoices the accounts list, an archive
  // on the leases the customers list.
  await listEarlierInvoices(pool, store);
  await listEarlierLeases(pool, store);
  const connection = queueConnection({ redisUrl: config.redisUrl, databaseUrl, prefix: options.queuePrefix });
  const queue = createQueue(PROJECTOR_QUEUE, connection);
  const readModelJobs = createQueue(READ_MODEL_QUEUE, connection);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  const wakeProjector = projectorWaker(queue, connection);
  let log = (message: string, error?: unknown) => console.error(message, error);
  const progress = new ProjectionProgress(databaseUrl, (message, error) => log(message, error));
  const afterAppend = async (position: Position, timeoutMs?: number) => {
    await wakeProjector();
    return progress.wait(position, timeoutMs);
  };
  const clock = await startBusinessClock(store);
  const mailer = configuredMailer({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom });
  const app = await buildApp({
    mailer,
    store,
    pool,
    clock,
    sessionKey: options.sessionKey,
    stripePublishableKey: config.stripePublishableKey,
    stripeSecretKey: config.stripeSecretKey,
    stripeWebhookSecret: config.stripeWebhookSecret,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    redis,
    readModelJobs,
    staticRoots: options.staticRoots,
    logger: options.logger,
    async afterAppend(position) {
      await afterAppend(position);
    },
  });
  log = (message, error) => app.log.error({ err: error }, message);
  // Listening once the app stands: nothing to leave behind if building it fails.
  await progress.start();
  return {
    app,
    pool,
    store,
    clock,
    afterAppend,
    async close() {
      await app.close();
      clock.stop();
      // Nothing is served any more: the connections that served it end together.
      await Promise.all([mailer.close(), progress.close(), queue.close(), readModelJobs.close()]);
      redis?.disconnect();
      await store.close();
      await pool.end();
    },
  };
}
