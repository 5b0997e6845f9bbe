import type { FastifyServerOptions } from 'fastify';

/** PostgreSQL going away under open connections: administrator shutdown, shutting down, refused, reset. */
const CONNECTION_ENDED = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']);

function endedConnection(fields: unknown): boolean {
  const err = (fields as { err?: { code?: unknown; message?: unknown } } | null)?.err;
  if (!err) return false;
  return (
    (typeof err.code === 'string' && CONNECTION_ENDED.has(err.code)) || (typeof err.message === 'string' && err.message.startsWith('Connection terminated'))
  );
}

/**
 * The processes' logger (Fastify's pino) at the configured LOG_LEVEL (`info` by default; `silent`
 * turns it off): JSON lines for log collectors, readable lines (pino-pretty) only when a person
 * watches a terminal. While `stopping()` says the process is stopping (a Ctrl-C reaches the
 * embedded PostgreSQL with the app), the errors of connections the database closed are expected,
 * and left out instead of printed as stack traces.
 */
export function processLogger(
  level: string,
  tty: boolean = process.stdout.isTTY === true,
  stopping: () => boolean = () => false,
): NonNullable<FastifyServerOptions['logger']> {
  const hooks = {
    logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void, logLevel: number) {
      if (logLevel >= 50 && stopping() && endedConnection(args[0])) return;
      method.apply(this, args);
    },
  };
  return tty ? { level, hooks, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard', ignore: 'pid,hostname' } } } : { level, hooks };
}
