import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '@storage/contracts/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from './validate.ts';

/**
 * The one check every route passes through: no text the database cannot store (a NUL character,
 * an unpaired surrogate) in a header, the path parameters, the query or a parsed body; the
 * answer is a 400 naming the field, before any handler, query or streamed download starts.
 */
export function registerStorableInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    for (const value of [request.headers, request.params, request.query, request.body]) {
      const field = findUnstorableText(value);
      if (field === null) continue;
      throw new ValidationError(field ? `${field}: ${UNSTORABLE_TEXT_MESSAGE}` : `The request body ${UNSTORABLE_TEXT_MESSAGE}`, field || undefined);
    }
  });
}
