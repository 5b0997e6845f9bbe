import type { ReadModelFailure, ReadModelJob } from '@storage/contracts/read-model';
import { readModelProjections } from '@storage/projector/projections';
import { ReadModelSession } from '@storage/projector/read-model-session';
import { buildShadow, projectionsToApply, projectionsToRebuild, rebuildReadModel, swapIn, withRebuildLock } from '@storage/projector/rebuild';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The rebuild replays the demo history into shadow tables and swaps them in while the product runs.

describe('read-model rebuild', () => {
  let platform: TestPlatform;
  let owner: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: true });
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('rebuilds the demo read model equal to the live one', async () => {
    const { pool, store } = platform.api;
    const before = await verifyReadModel(pool, store);
    expect(before.differences).toEqual([]);
    expect(before.rowsCompared).toBeGreaterThan(100);
    expect(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM pg_namespace WHERE nspname = 'shadow'`)).toBe(0);
  });

  it('rebuilds equal to the live tables when its writes interleave with the applying and it forgets and re-reads rows', async () => {
    const { pool, store } = platform.api;
    // Small enough that rows are read while their last write is still on its way, and the
    // session forgets everything many times over the demo's history.
    const verification = await verifyReadModel(pool, store, readModelProjections, () => {}, { batchSize: 37, eventsPerWrite: 111, cachedRows: 300 });
    expect(verification.differences).toEqual([]);
    expect(verification.eventsApplied).toBeGreaterThan(1000);
  });

  it('swaps the rebuilt tables in, fixing a tampered row, and the product keeps projecting', async () => {
    const { pool, store } = platform.api;
    const customerId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM customers ORDER BY id LIMIT 1`);
    await pool.query(sql.unsafe`UPDATE customers SET first_name = 'Tampered' WHERE id = ${customerId}`);

    const build = await rebuildReadModel(pool, store, readModelProjections);
    expect(build.eventsApplied).toBeGreaterThan(1000);
    expect(await pool.oneFirst(sql.unsafe`SELECT first_name FROM customers WHERE id = ${customerId}`)).not.toBe('Tampered');
    expect(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM pg_namespace WHERE nspname IN ('shadow', 'retired')`)).toBe(0);
    // Swapped in with the planner's statistics, not planned blind until autovacuum comes by.
    expect(await pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM pg_stats WHERE schemaname = 'public' AND tablename = 'audit_log'`)).toBeGreaterThan(0);

    const response = await platform.api.app.inject({ method: 'GET', url: `/api/customers/${customerId}`, headers: { cookie: owner } });
    expect(response.statusCode).toBe(200);

    // An event after the swap lands in the new live tables.
    await platform.signIn('clerk');
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  it('gives every rebuilt projection its checkpoint, also one the projector never wrote (a history rebuilt before the first start)', async () => {
    const { pool, store } = platform.api;
    await pool.query(sql.unsafe`DELETE FROM projection_checkpoints WHERE name = 'customers'`);

    const build = await rebuildReadModel(pool, store, readModelProjections);

    const hi = await pool.oneFirst(
      sql.type(z.object({ hi: z.string().nullable() }))`SELECT position_hi::text AS hi FROM projection_checkpoints WHERE name = 'customers'`,
    );
    expect(hi).not.toBeNull();
    expect(BigInt(hi!)).toBeGreaterThanOrEqual(build.position!.hi);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  it('never steps the read model back: what was appended after the shadow was built is in it when it is swapped in', async () => {
    const { pool, store, app } = platform.api;
    await withRebuildLock(pool, async (connection) => {
      const shadow = await buildShadow(pool, connection, store, readModelProjections, () => {});
      // Appended (and projected into the live tables) after the shadow's last read.
      const clerk = await platform.createStaff('clerk');
      await swapIn(connection, store, shadow);
      // Before any catch-up: the new member can sign in on the rebuilt tables.
      const signIn = await app.inject({ method: 'POST', url: '/api/auth/login', payload: clerk });
      expect(signIn.statusCode, signIn.body).toBe(200);
    });
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  /** Follows an owner's read-model job until it has finished. */
  const finished = async (id: string) => {
    let job: ReadModelJob;
    do {
      await new Promise((r) => setTimeout(r, 100));
      job = (await platform.api.app.inject({ method: 'GET', url: `/api/read-model/jobs/${id}`, headers: { cookie: owner } })).json<ReadModelJob>();
    } while (job.state === 'waiting' || job.state === 'active');
    return job;
  };

  it('refuses verification, rebuilds and their jobs to every role but the owner, auditors by the read-only rule first', async () => {
    const { app } = platform.api;
    for (const role of ['manager', 'clerk', 'auditor'] as const) {
      const cookie = await platform.signIn(role);
      const refusal = role === 'auditor' ? 'Auditors have read-only access' : 'Only owner accounts may do this';
      for (const kind of ['verify', 'rebuild']) {
        const response = await app.inject({ method: 'POST', url: `/api/read-model/${kind}`, headers: { cookie } });
        expect(response.statusCode, `${role} POST ${kind}`).toBe(403);
        expect(response.json(), `${role} POST ${kind}`).toEqual({ message: refusal });
      }
      const job = await app.inject({ method: 'GET', url: '/api/read-model/jobs/1', headers: { cookie } });
      expect(job.statusCode, `${role} GET job`).toBe(403);
      expect(job.json(), `${role} GET job`).toEqual({ message: 'Only owner accounts may do this' });
    }
  });

  it("runs an owner's verification and rebuild as jobs of the projector, with their progress", async () => {
    const { app } = platform.api;
    const clerk = await platform.signIn('clerk');
    expect((await app.inject({ method: 'POST', url: '/api/read-model/rebuild', headers: { cookie: clerk } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/read-model/jobs/abc', headers: { cookie: owner } })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/read-model/jobs/999999', headers: { cookie: owner } })).statusCode).toBe(404);

    for (const kind of ['verify', 'rebuild'] as const) {
      const started = await app.inject({ method: 'POST', url: `/api/read-model/${kind}`, headers: { cookie: owner } });
      expect(started.statusCode).toBe(202);
      const job = await finished(started.json<ReadModelJob>().id);
      expect(job).toMatchObject({ kind, projection: null, state: 'completed', error: null });
      expect(job.eventsApplied).toBeGreaterThan(1000);
      if (kind === 'verify') expect(job.result?.differences).toEqual([]);
    }
  });

  it("names a failing projection to owners with its error and what it holds, and an owner's rebuild of it alone clears it", async () => {
    const { app, pool, store } = platform.api;
    const failures = async (cookie: string) => app.inject({ method: 'GET', url: '/api/read-model/failures', headers: { cookie } });
    expect((await failures(owner)).json()).toEqual([]);
    // As the projector records one: on a real event, its retry far off, so that only the rebuild clears it.
    const [event] = await store.readAllBackwards({ limit: 1 });
    await pool.query(sql.unsafe`
      INSERT INTO projection_failures
        (projection, event_id, event_type, position_hi, position_lo, error, attempts, first_failed_at, last_failed_at, next_attempt_at, holds)
      VALUES ('activities', ${event!.id}, ${event!.type}, ${event!.position.hi.toString()}, ${event!.position.lo.toString()},
        'activities bug: cannot take this event', 3, now(), now(), now() + interval '1 hour', '{}')`);
    expect((await failures(owner)).json<ReadModelFailure[]>()).toEqual([
      expect.objectContaining({
        projection: 'activities',
        eventId: event!.id,
        eventType: event!.type,
        position: `${event!.position.hi}/${event!.position.lo}`,
        error: 'activities bug: cannot take this event',
        attempts: 3,
        holds: [],
      }),
    ]);
    expect((await failures(await platform.signIn('clerk'))).statusCode).toBe(403);

    const rebuild = (projection: string) => app.inject({ method: 'POST', url: '/api/read-model/rebuild', headers: { cookie: owner }, payload: { projection } });
    expect((await rebuild('nonsense')).statusCode).toBe(404);
    const started = await rebuild('activities');
    expect(started.statusCode).toBe(202);
    expect(started.json<ReadModelJob>()).toMatchObject({ kind: 'rebuild', projection: 'activities' });
    expect(await finished(started.json<ReadModelJob>().id)).toMatchObject({ projection: 'activities', state: 'completed', error: null });
    expect((await failures(owner)).json()).toEqual([]);
    expect((await verifyReadModel(pool, store)).differences).toEqual([]);
  });

  it('rebuilds a named projection alone, one that reads others with them applied beside it, and the whole read model otherwise', () => {
    const applied = (name?: string) => projectionsToApply(projectionsToRebuild(name)).map((p) => p.name);
    expect(projectionsToRebuild('customers').map((p) => p.name)).toEqual(['customers']);
    expect(applied('customers')).toEqual(['customers']);
    expect(projectionsToRebuild('activities').map((p) => p.name)).toEqual(['activities']);
    expect(applied('activities')).toEqual(['units', 'customers', 'invoices', 'locks', 'activities']);
    expect(projectionsToRebuild()).toBe(readModelProjections);
    expect(applied()).toEqual(readModelProjections.map((p) => p.name));
    expect(() => projectionsToRebuild('nonsense')).toThrow(/Unknown projection nonsense/);
  });

  it('verifies a projection on its own, equal to the live one: each that reads no other table, and readers with their sources rebuilt beside them', async () => {
    const { pool, store } = platform.api;
    const readsNothing = readModelProjections.filter((p) => !p.reads?.length);
    expect(readsNothing.map((p) => p.name).sort()).toEqual([
      'billing_runs',
      'customers',
      'gateway_keys',
      'merchandise',
      'metrics',
      'reservations',
      'settings',
      'staff',
      'units',
    ]);
    const alone = [...readsNothing, ...readModelProjections.filter((p) => p.name === 'activities' || p.name === 'report-totals')];
    for (const projection of alone) {
      const verification = await verifyReadModel(pool, store, [projection]);
      expect(verification.differences, projection.name).toEqual([]);
      expect(verification.tablesCompared, projection.name).toBe(projection.tables.length);
    }
  });

  it('refuses a projection a table it neither owns nor declares', async () => {
    const { pool } = platform.api;
    const unitId = await pool.oneFirst(sql.type(z.object({ id: z.string() }))`SELECT id FROM units LIMIT 1`);
    await pool.transaction(async (tx) => {
      const rows = new ReadModelSession(tx).for({ name: 'customers', tables: ['customers'] });
      await expect(rows.get('units', unitId)).rejects.toThrow('The customers projection reads units, which it does not declare');
      const reader = new ReadModelSession(tx).for({ name: 'locks', tables: ['locks'], reads: ['units'] });
      expect((await reader.get('units', unitId))?.id).toBe(unitId);
      await expect(reader.update('units', unitId, { status: 'maintenance' })).rejects.toThrow('The locks projection writes units, which it does not own');
    });
  });
});
