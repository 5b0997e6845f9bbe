import type { FastifyServerOptions } from 'fastify';

/**
 * The processes' logger (Fastify's pino): on at `info` unless LOG_LEVEL says otherwise (`silent`
 * turns it off), JSON lines for log collectors, readable lines (pino-pretty) only when a person
 * watches a terminal.
 */
export function processLogger(env: NodeJS.ProcessEnv = process.env, tty: boolean = process.stdout.isTTY === true): NonNullable<FastifyServerOptions['logger']> {
  const level = env.LOG_LEVEL || 'info';
  return tty ? { level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard', ignore: 'pid,hostname' } } } : { level };
}
