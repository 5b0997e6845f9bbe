import { createPostgresBackend, type Processor, Queue, Worker } from 'bullmq';

// BullMQ on Redis when REDIS_URL is set, otherwise on its PostgreSQL backend in the app's own
// database: the same Queue and Worker either way.

export type QueueConnection =
  | { kind: 'redis'; url: string /** Key prefix, so deployments (and test runs) sharing a Redis stay apart. */; prefix?: string }
  | { kind: 'postgres'; url: string };

export function queueConnection(options: { redisUrl: string | undefined; databaseUrl: string; prefix?: string }): QueueConnection {
  return options.redisUrl
    ? { kind: 'redis', url: options.redisUrl, ...(options.prefix ? { prefix: options.prefix } : {}) }
    : { kind: 'postgres', url: options.databaseUrl };
}

function redisOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    maxRetriesPerRequest: null,
  };
}

function postgresOptions(url: string) {
  return { connectionString: url, migrate: true, max: 4 };
}

export function createQueue(name: string, connection: QueueConnection, onError: (error: Error) => void = reportQueueError): Queue {
  const queue =
    connection.kind === 'redis'
      ? new Queue(name, { connection: redisOptions(connection.url), prefix: connection.prefix })
      : (new Queue(name, { connection: postgresOptions(connection.url) }, createPostgresBackend) as unknown as Queue);
  // A lost connection is retried by BullMQ; unheard, the 'error' event would end the process.
  queue.on('error', onError);
  return queue;
}

/** Set once the process is stopping: the database closing the queue's connections is then expected. */
let stopping = false;

/** Says the process is stopping (the start command's Ctrl-C): connections closed by the database's own shutdown go unreported. */
export function queuesStopping(): void {
  stopping = true;
}

/** PostgreSQL's codes for a connection it closed while shutting down (administrator command, shutting down). */
const CLOSED_BY_SHUTDOWN = new Set(['57P01', '57P02', '57P03']);

/** Whether `error` is PostgreSQL closing the connection as it shuts down. */
export function closedByShutdown(error: unknown): boolean {
  return CLOSED_BY_SHUTDOWN.has((error as { code?: string } | null)?.code ?? '');
}

function reportQueueError(error: Error) {
  if (stopping && closedByShutdown(error)) return;
  console.error(`queue error: ${error.message}`);
}

export function createWorker(name: string, connection: QueueConnection, processor: Processor): Worker {
  if (connection.kind === 'redis') {
    return new Worker(name, processor, { connection: redisOptions(connection.url), prefix: connection.prefix, concurrency: 1 });
  }
  return new Worker(name, processor, { connection: postgresOptions(connection.url), concurrency: 1 }, createPostgresBackend) as unknown as Worker;
}
