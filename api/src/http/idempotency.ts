import { createHash, randomUUID } from 'node:crypto';
import { ConflictError } from '@storage/domain/commands/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { callerOf } from './caller.ts';
import { ValidationError } from './validate.ts';

// Commands accept an Idempotency-Key header: the first request with a key runs, a repeat of it
// gets the first answer back (and appends nothing), a repeat while the first still runs is a 409.
// A key belongs to its caller (a staff member, a renter's portal session, else the address), is
// bound to the request (method, path and a hash of the canonical body: another request with it is
// a 422), lasts a day, and a claim left by a request that died mid-way is taken over once stale.

const HEADER = 'idempotency-key';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KeyPattern = /^[\x21-\x7e]{1,200}$/;
/** How long a key answers with its first result. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/**
 * A claim with no answer this old belongs to a request that died (a crash, a killed process):
 * longer than any request runs (the provider's calls time out after 10 s, with two retries).
 */
export const STALE_CLAIM_MINUTES = 5;
/** Expired keys are swept at most this often per process (they are ignored meanwhile). */
const SWEEP_EVERY_MS = 10 * 60_000;

const StoredRow = z.object({
  method: z.string(),
  path: z.string(),
  body_hash: z.string(),
  status_code: z.number().nullable(),
  content_type: z.string().nullable(),
  response_body: z.string().nullable(),
});

/** The key was used for another request (422, naming the header). */
export class IdempotencyKeyReusedError extends Error {
  readonly statusCode = 422;
  readonly field = 'Idempotency-Key';
  constructor() {
    super('Idempotency-Key: this key was already used for a different request');
    this.name = 'IdempotencyKeyReusedError';
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** keep: false when the answer is not final (UnfinishedError): a repeat with the key runs again. */
    idempotency: { scope: string; key: string; token: string; keep?: boolean } | null;
  }
  interface FastifyContextConfig {
    /** false for routes whose answer carries a secret that must not be kept for replays. */
    idempotent?: boolean;
    /**
     * true for commands that are idempotent by the key themselves (a desk receipt's id derives
     * from it): a repeat while the first has no answer yet runs again instead of a 409, so a
     * clerk's retry after a request that died finishes the same receipt at once rather than
     * waiting out the stale claim.
     */
    rerunWhileRunning?: boolean;
  }
}

/**
 * The request a key is bound to: the matched route with its decoded parameters, so two spellings
 * of one URL (`/%61pi/...`, a trailing slash) are the same request and two routes never are.
 */
function boundPath(request: FastifyRequest): string {
  const params = (request.params ?? {}) as Record<string, unknown>;
  return (request.routeOptions.url ?? '').replace(/:(\w+)/g, (whole, name: string) => (name in params ? encodeURIComponent(String(params[name])) : whole));
}

/** Whose key it is: one caller's keys never answer another caller. */
export async function idempotencyScopeOf(request: FastifyRequest): Promise<string> {
  const { staffId, customerId } = await callerOf(request);
  if (staffId) return `staff:${staffId}`;
  if (customerId) return `customer:${customerId}`;
  return `ip:${request.ip}`;
}

/** JSON with object keys sorted, so two spellings of one body are one request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** A hash of the request's body; the body itself is never stored. */
export function bodyHashOf(body: unknown): string {
  const hash = createHash('sha256');
  if (Buffer.isBuffer(body)) hash.update('bytes:').update(body);
  else if (typeof body === 'string') hash.update('text:').update(body);
  else hash.update('json:').update(canonical(body ?? null));
  return hash.digest('hex');
}

export function registerIdempotency(app: FastifyInstance, pool: DatabasePool) {
  app.decorateRequest('idempotency', null);
  let lastSweep = 0;

  function sweepExpired(request: FastifyRequest) {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    pool
      .query(sql.unsafe`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`)
      .catch((error: unknown) => request.log.warn({ err: error }, 'sweeping expired idempotency keys failed'));
  }

  // Before validation, once the caller may call the route (see access.ts): the key binds the body
  // as sent, and a refusal of bad input is the key's answer like any other.
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[HEADER];
    if (header === undefined || !MUTATING.has(request.method) || request.routeOptions.config.idempotent === false) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !KeyPattern.test(key)) throw new ValidationError('Idempotency-Key must be 1 to 200 visible ASCII characters', 'Idempotency-Key');
    sweepExpired(request);
    const scope = await idempotencyScopeOf(request);
    const path = boundPath(request);
    const bodyHash = bodyHashOf(request.body);
    const token = randomUUID();
    let stored: z.infer<typeof StoredRow> | null = null;
    // Twice at most: a key swept between the claim and the read is free again and is claimed anew.
    for (let attempt = 0; attempt < 2 && !stored; attempt++) {
      // A new key is claimed; so is an expired one (any request), and a stale claim of this very
      // request (its first run died before answering).
      const claimed = await pool.maybeOne(sql.type(z.object({ key: z.string() }))`
        INSERT INTO idempotency_keys (scope, key, method, path, body_hash, claim_token)
        VALUES (${scope}, ${key}, ${request.method}, ${path}, ${bodyHash}, ${token})
        ON CONFLICT (scope, key) DO UPDATE SET
          method = EXCLUDED.method, path = EXCLUDED.path, body_hash = EXCLUDED.body_hash, claim_token = EXCLUDED.claim_token,
          status_code = NULL, content_type = NULL, response_body = NULL, created_at = now(), claimed_at = now()
        WHERE idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})
           OR (idempotency_keys.status_code IS NULL
               AND idempotency_keys.claimed_at < now() - make_interval(mins => ${STALE_CLAIM_MINUTES})
               AND idempotency_keys.method = EXCLUDED.method AND idempotency_keys.path = EXCLUDED.path
               AND idempotency_keys.body_hash = EXCLUDED.body_hash)
        RETURNING key`);
      if (claimed) {
        request.idempotency = { scope, key, token };
        return;
      }
      stored = await pool.maybeOne(sql.type(StoredRow)`
        SELECT method, path, body_hash, status_code, content_type, response_body FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`);
    }
    if (!stored) throw new ConflictError('A request with this Idempotency-Key is still being processed');
    if (stored.method !== request.method || stored.path !== path || stored.body_hash !== bodyHash) throw new IdempotencyKeyReusedError();
    if (stored.status_code === null && request.routeOptions.config.rerunWhileRunning === true) {
      // The claim passes to this run: should the first still answer, it finds the claim gone and keeps nothing.
      const taken = await pool.maybeOne(sql.type(z.object({ key: z.string() }))`
        UPDATE idempotency_keys SET claim_token = ${token}, claimed_at = now()
        WHERE scope = ${scope} AND key = ${key} AND status_code IS NULL AND body_hash = ${bodyHash} RETURNING key`);
      if (taken) {
        request.idempotency = { scope, key, token };
        return;
      }
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
    // The claim token: a request that outlived its claim (taken over as stale) does not overwrite the new one.
    const mine = sql.fragment`scope = ${claim.scope} AND key = ${claim.key} AND claim_token = ${claim.token}`;
    if (reply.statusCode >= 500 || claim.keep === false) {
      // A failure of ours (or an unfinished request) is not an answer to keep: the client may retry with the same key.
      await pool.query(sql.unsafe`DELETE FROM idempotency_keys WHERE ${mine}`);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const contentType = reply.getHeader('content-type');
    await pool.query(sql.unsafe`
      UPDATE idempotency_keys SET status_code = ${reply.statusCode}, response_body = ${body},
        content_type = ${typeof contentType === 'string' ? contentType : null}
      WHERE ${mine}`);
    return payload;
  });
}
