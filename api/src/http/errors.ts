import { ConflictError, DomainRuleError, ForbiddenError, NotFoundError, UnfinishedError } from '@storage/domain/commands/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from './validate.ts';

function statusOf(error: unknown): number {
  if (error instanceof ValidationError || error instanceof DomainRuleError) return 400;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  const code = (error as FastifyError).statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

/**
 * One error handler: 4xx answers carry the message (and the field when there is one); 5xx say
 * only "Internal Server Error" while the whole error goes to the log with the request.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const status = statusOf(error);
    if (status >= 500) {
      request.log.error({ err: error, method: request.method, url: request.url, params: request.params, query: request.query }, 'request failed');
      return reply.status(500).send({ message: 'Internal Server Error' });
    }
    // Part of it is recorded and a repeat with the same key finishes it: not the answer kept for the key.
    if (error instanceof UnfinishedError && request.idempotency) request.idempotency.keep = false;
    const field = (error as { field?: string }).field;
    const message = status === 413 ? 'The request body is too large' : (error as Error).message;
    return reply.status(status).send(field ? { message, field } : { message });
  });
}

/**
 * Errors Fastify meets before a route is chosen (a URL it cannot decode, a path parameter over
 * its length limit): the same `{ message }` answer as every other refusal.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error, method: request.method, url: request.url }, 'request failed before routing');
    reply.status(500).send({ message: 'Internal Server Error' });
    return;
  }
  reply.status(status).send({ message: status === 414 ? 'A path parameter is too long' : 'The URL is not valid' });
}
