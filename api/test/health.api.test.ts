import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '@storage/api/app';
import type { AppDeps } from '@storage/api/deps';
import { processLogger } from '@storage/api/http/logger';
import { READ_MODEL_QUEUE } from '@storage/contracts/read-model';
import { connectEventStore } from '@storage/eventstore/connect';
import type { RecordedEvent } from '@storage/eventstore/port';
import { readConfig } from '@storage/platform/config';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { projectorLag, readiness, reportLag, startHealthServer } from '@storage/platform/health';
import { migrateReadModel } from '@storage/platform/migrate';
import { createQueue, queueConnection } from '@storage/platform/queues';
import { createTestDatabase } from '@storage/testing/database';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// What an operator's load balancer, log collector and support desk rely on: health answers that
// reflect a stopped database, JSON 404s for unknown API paths, a request id per request that is
// found again on the request's events, and a 500's stack in the log.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let platform: TestPlatform;
let queue: Queue;
let staff: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  queue = createQueue(READ_MODEL_QUEUE, queueConnection({ redisUrl: undefined, databaseUrl: platform.database.url }));
  staff = await platform.signIn('owner');
});
afterAll(async () => {
  await queue?.close();
  await platform?.close();
});

/** Another API on the test platform's store (as another replica would be), with the deps a test changes. */
async function appWith(overrides: Partial<AppDeps>): Promise<FastifyInstance> {
  return buildApp({
    store: platform.api.store,
    pool: platform.api.pool,
    clock: { now: () => new Date() },
    sessionKey: platform.sessionKey,
    readModelJobs: queue,
    async afterAppend(position) {
      await platform.api.afterAppend(position);
    },
    ...overrides,
  });
}

async function eventsAfter(head: Awaited<ReturnType<TestPlatform['api']['store']['headPosition']>>): Promise<RecordedEvent[]> {
  return platform.api.store.readAll({ after: head, limit: 100 });
}

const newCustomer = () => ({ firstName: 'Rita', lastName: 'Request', email: `rita-${randomUUID().slice(0, 8)}@example.test`, phone: '555-010-4321' });

describe('health answers', () => {
  it('live: 200 JSON without a session', async () => {
    const response = await platform.api.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toMatchObject({ status: 'live' });
  });

  it('ready: 200 with every check passing and the projector lag on a running platform', async () => {
    const response = await platform.api.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ready');
    expect(body.failing).toEqual([]);
    for (const name of ['database', 'eventStore', 'queue', 'projectorLag']) expect(body.checks[name].ok, name).toBe(true);
    expect(body.checks.projectorLag.eventsBehind).toBeTypeOf('number');
    expect(body.checks.projectorLag.secondsBehind).toBeTypeOf('number');
  });

  it('is not rate limited: many probes in a row all answer 200', async () => {
    for (let i = 0; i < 30; i++) {
      const response = await platform.api.app.inject({ method: 'GET', url: '/api/health/live', remoteAddress: '10.7.0.1' });
      expect(response.statusCode).toBe(200);
    }
  });

  describe('with the database stopped', () => {
    let stopped: DatabasePool;
    let app: FastifyInstance;
    beforeAll(async () => {
      // A pool that worked, then its database went away under it (connections ended, the database gone).
      const database = await createTestDatabase('health_stopped');
      stopped = await createDatabasePool(database.url);
      await stopped.oneFirst(sql.type(z.object({ ok: z.number() }))`SELECT 1 AS ok`);
      await database.drop();
      app = await appWith({ pool: stopped });
    });
    afterAll(async () => {
      await app?.close();
      await stopped?.end();
    });

    it('ready: 503 naming the database, live still 200', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(response.statusCode, response.body).toBe(503);
      const body = response.json();
      expect(body.status).toBe('not ready');
      expect(body.failing).toContain('database');
      expect(body.checks.database.ok).toBe(false);
      expect(body.checks.database.error).toEqual(expect.any(String));
      expect(body.checks.eventStore.ok).toBe(true);
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    });

    it("the projector's own health port gives the same answers: 200 when it can work, 503 naming the database when not", async () => {
      const healthy = await startHealthServer({ pool: platform.api.pool, store: platform.api.store, queue }, { port: 0, host: '127.0.0.1' });
      const broken = await startHealthServer({ pool: stopped, store: platform.api.store, queue }, { port: 0, host: '127.0.0.1' });
      try {
        const live = await fetch(`http://127.0.0.1:${healthy.port}/api/health/live`);
        expect(live.status).toBe(200);
        const ready = await fetch(`http://127.0.0.1:${healthy.port}/api/health/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ status: 'ready', failing: [] });
        const notReady = await fetch(`http://127.0.0.1:${broken.port}/api/health/ready`);
        expect(notReady.status).toBe(503);
        expect((await notReady.json()).failing).toContain('database');
        expect((await fetch(`http://127.0.0.1:${healthy.port}/elsewhere`)).status).toBe(404);
      } finally {
        await healthy.close();
        await broken.close();
      }
    });
  });
});

describe('projector lag', () => {
  it('counts the events the read model has not projected and how old the oldest is, in the ready answer and the log', async () => {
    // A database with events and no projector running: the read model is behind by exactly those events.
    const database = await createTestDatabase('health_lag');
    await migrateReadModel(database.url);
    const pool = await createDatabasePool(database.url);
    const store = await connectEventStore({ eventStoreUrl: undefined, databaseUrl: database.url });
    try {
      const metadata = {
        actor: { type: 'system' as const },
        correlationId: randomUUID(),
        causationId: null,
        schemaVersion: 1,
        occurredAt: new Date().toISOString(),
      };
      for (let i = 0; i < 3; i++) {
        await store.append(`probe-${i}`, [{ id: randomUUID(), type: 'probe_recorded', data: {}, metadata }], { expectedRevision: 'no_stream' });
      }
      const lag = await projectorLag(pool, store, new Date(Date.now() + 5000));
      expect(lag).toMatchObject({ eventsBehind: 3, eventsBehindAtLeast: false });
      expect(lag.secondsBehind).toBeGreaterThanOrEqual(4);

      const ready = await readiness({ pool, store, queue });
      expect(ready.checks.projectorLag).toMatchObject({ ok: true, eventsBehind: 3 });

      const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
      const stop = reportLag({ pool, store }, (level, fields, message) => lines.push({ level, fields, message }), { everyMs: 10 });
      const deadline = Date.now() + 5000;
      while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      stop();
      expect(lines[0]).toMatchObject({ level: 'info', message: 'projector lag', fields: { eventsBehind: 3 } });
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });
});

describe('unknown /api paths answer JSON 404, never the portal', () => {
  let roots: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    roots = mkdtempSync(join(tmpdir(), 'front-ends-'));
    for (const [name, assets] of [
      ['console', 'console-assets'],
      ['portal', 'portal-assets'],
    ] as const) {
      mkdirSync(join(roots, name, assets), { recursive: true });
      writeFileSync(join(roots, name, 'index.html'), `<!doctype html><title>${name}</title>`);
    }
    app = await appWith({ staticRoots: { console: join(roots, 'console'), portal: join(roots, 'portal') } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(roots, { recursive: true, force: true });
  });

  for (const [method, url] of [
    ['GET', '/api/health'],
    ['GET', '/api/no-such-thing'],
    ['GET', '/api'],
    ['GET', '/API/customers-x'],
    ['GET', '//api/nothing'],
    ['HEAD', '/api/nothing/here'],
    ['POST', '/api/nothing'],
    ['DELETE', '/api/health/live'],
  ] as const) {
    it(`${method} ${url}`, async () => {
      const response = await app.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      if (method !== 'HEAD') expect(response.json()).toEqual({ message: 'Not Found' });
    });
  }

  for (const [url, title] of [
    ['/', 'portal'],
    ['/available-units', 'portal'],
    ['/checkout/0b7d5f3e-1111-4222-8333-444455556666', 'portal'],
    ['/customer-portal/', 'portal'],
    ['/customers', 'console'],
    ['/customers/0b7d5f3e-1111-4222-8333-444455556666', 'console'],
    ['/login', 'console'],
    ['/audit?actor=x', 'console'],
  ] as const) {
    it(`the page ${url} gets its app's HTML with 200`, async () => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`<title>${title}</title>`);
    });
  }

  for (const url of ['/account', '/no-such-page', '/customers/extra/segments', '/checkout/a/b', '/available-unitsx']) {
    it(`the unknown page ${url} answers 404, with the portal's not-found page`, async () => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>portal</title>');
    });
  }
});

describe('request ids', () => {
  it('two requests get two different UUIDs, in the header and as the correlation id of their events', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const head = await platform.api.store.headPosition();
      const response = await platform.api.app.inject({ method: 'POST', url: '/api/customers', headers: { cookie: staff }, payload: newCustomer() });
      expect(response.statusCode, response.body).toBe(201);
      const id = response.headers['x-request-id'];
      expect(id).toMatch(UUID);
      const events = await eventsAfter(head);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.metadata.correlationId).toBe(id);
      ids.push(id as string);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('errors and unknown paths carry the id too', async () => {
    const missing = await platform.api.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(missing.headers['x-request-id']).toMatch(UUID);
    const refused = await platform.api.app.inject({ method: 'GET', url: '/api/customers' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(UUID);
  });

  it('an X-Request-Id is ignored when no proxy is trusted', async () => {
    const head = await platform.api.store.headPosition();
    const response = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: staff, 'x-request-id': 'forged-by-the-client' },
      payload: newCustomer(),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['x-request-id']).toMatch(UUID);
    for (const event of await eventsAfter(head)) expect(event.metadata.correlationId).not.toBe('forged-by-the-client');
  });

  describe('behind a trusted proxy', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await appWith({ trustProxy: ['10.0.0.1', '192.168.50.0/24'] });
    });
    afterAll(async () => {
      await app?.close();
    });

    it("the proxy's X-Request-Id is the request's id and its events' correlation id", async () => {
      const head = await platform.api.store.headPosition();
      const response = await app.inject({
        method: 'POST',
        url: '/api/customers',
        headers: { cookie: staff, 'x-request-id': 'lb-7f3a-0001' },
        payload: newCustomer(),
        remoteAddress: '192.168.50.7',
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['x-request-id']).toBe('lb-7f3a-0001');
      const events = await eventsAfter(head);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.metadata.correlationId).toBe('lb-7f3a-0001');
    });

    it('the same header from a peer that is not the proxy is ignored', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health/live', headers: { 'x-request-id': 'lb-7f3a-0002' }, remoteAddress: '10.0.0.2' });
      expect(response.headers['x-request-id']).toMatch(UUID);
    });

    it('an id that could forge a log line is ignored even from the proxy', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/health/live', headers: { 'x-request-id': 'a b\tc' }, remoteAddress: '10.0.0.1' });
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });
});

describe('logs', () => {
  it("a 500's stack trace reaches the log, with the request's id; the client sees only the generic message", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const app = await appWith({ logger: { level: 'info', stream } });
    app.get('/api/test/explodes', { config: { access: 'public' } }, async () => {
      throw new Error('the disk caught fire');
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/test/explodes' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Internal Server Error' });
      expect(response.body).not.toContain('disk');
      const failure = lines
        .map((line) => JSON.parse(line) as { msg?: string; level?: number; reqId?: string; err: { message: string; stack: string } })
        .find((entry) => entry.msg === 'request failed');
      expect(failure).toBeDefined();
      expect(failure!.level).toBe(50);
      expect(failure!.reqId).toBe(response.headers['x-request-id']);
      expect(failure!.err.message).toBe('the disk caught fire');
      expect(failure!.err.stack).toContain('health.api.test.ts');
    } finally {
      await app.close();
    }
  });

  it('processes log at info by default, LOG_LEVEL changes it, and pretty lines only in a terminal', () => {
    expect(processLogger(readConfig({}).logLevel, false)).toMatchObject({ level: 'info' });
    expect(processLogger(readConfig({ LOG_LEVEL: 'warn' }).logLevel, false)).toMatchObject({ level: 'warn' });
    expect(processLogger(readConfig({}).logLevel, true)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
  });

  it('leaves out the errors of connections the database closed only while the process is stopping', () => {
    let stopping = false;
    const { hooks } = processLogger('info', false, () => stopping) as {
      hooks: { logMethod(args: unknown[], method: (...a: unknown[]) => void, level: number): void };
    };
    const printed: unknown[][] = [];
    const log = (fields: unknown, level = 50) => hooks.logMethod([fields, 'message'], (...args) => printed.push(args), level);
    const ended = { err: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) };
    log(ended);
    stopping = true;
    log(ended);
    log({ err: new Error('Connection terminated unexpectedly') });
    log({ err: Object.assign(new Error('duplicate key'), { code: '23505' }) });
    log({ msg: 'stopping' }, 30);
    expect(printed.map(([fields]) => fields)).toEqual([ended, { err: expect.objectContaining({ code: '23505' }) }, { msg: 'stopping' }]);
  });
});
