import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type DatabasePool } from 'slonik';
import { z } from 'zod';
import { ConflictError } from '../commands/errors.ts';
import { callerOf } from './caller.ts';
import { ValidationError } from './validate.ts';

// Commands accept an Idempotency-Key header: the first request with a key runs, a repeat of it
// gets the first answer back (and appends nothing), a repeat while the first still runs is a 409.

const HEADER = 'idempotency-key';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KeyPattern = /^[\x21-\x7e]{1,200}$/;

const StoredRow = z.object({
  method: z.string(),
  path: z.string(),
  status_code: z.number().nullable(),
  content_type: z.string().nullable(),
  response_body: z.string().nullable(),
});

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { scope: string; key: string } | null;
  }
  interface FastifyContextConfig {
    /** false for routes whose answer carries a secret that must not be kept for replays. */
    idempotent?: boolean;
  }
}

async function scopeOf(request: FastifyRequest): Promise<string> {
  const { staffId } = await callerOf(request);
  return staffId ? `staff:${staffId}` : `ip:${request.ip}`;
}

export function registerIdempotency(app: FastifyInstance, pool: DatabasePool) {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[HEADER];
    if (header === undefined || !MUTATING.has(request.method) || request.routeOptions.config.idempotent === false) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !KeyPattern.test(key)) throw new ValidationError('Idempotency-Key must be 1 to 200 visible ASCII characters', 'Idempotency-Key');
    const scope = await scopeOf(request);
    const path = request.url.split('?')[0]!;
    const claimed = await pool.maybeOne(sql.type(z.object({ key: z.string() }))`
      INSERT INTO idempotency_keys (scope, key, method, path) VALUES (${scope}, ${key}, ${request.method}, ${path})
      ON CONFLICT (scope, key) DO NOTHING RETURNING key`);
    if (claimed) {
      request.idempotency = { scope, key };
      return;
    }
    const stored = await pool.one(sql.type(StoredRow)`
      SELECT method, path, status_code, content_type, response_body FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`);
    if (stored.method !== request.method || stored.path !== path) {
      throw new ConflictError('This Idempotency-Key was already used for a different request', 'Idempotency-Key');
    }
    if (stored.status_code === null) throw new ConflictError('A request with this Idempotency-Key is still being processed');
    reply.header('idempotent-replayed', 'true');
    if (stored.content_type) reply.type(stored.content_type);
    return reply.status(stored.status_code).send(stored.response_body ?? undefined);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500) {
      // A failure of ours is not an answer to keep: the client may retry with the same key.
      await pool.query(sql.unsafe`DELETE FROM idempotency_keys WHERE scope = ${claim.scope} AND key = ${claim.key}`);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const contentType = reply.getHeader('content-type');
    await pool.query(sql.unsafe`
      UPDATE idempotency_keys SET status_code = ${reply.statusCode}, response_body = ${body},
        content_type = ${typeof contentType === 'string' ? contentType : null}
      WHERE scope = ${claim.scope} AND key = ${claim.key}`);
    return payload;
  });
}
