import type { FastifyServerOptions } from 'fastify';

/**
 * The processes' logger (Fastify's pino) at the configured LOG_LEVEL (`info` by default; `silent`
 * turns it off): JSON lines for log collectors, readable lines (pino-pretty) only when a person
 * watches a terminal.
 */
export function processLogger(level: string, tty: boolean = process.stdout.isTTY === true): NonNullable<FastifyServerOptions['logger']> {
  return tty ? { level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard', ignore: 'pid,hostname' } } } : { level };
}
