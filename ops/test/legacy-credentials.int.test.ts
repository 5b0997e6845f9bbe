// An install from before issue 9: staff events (v1) carry password hashes, and the staff read
// table holds them. Migration 012 moves each member's latest hash into staff_credentials and
// scrubs the stored events, in one transaction; sign-in keeps working with the same passwords.

import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type ApiServer, createApiServer } from '@storage/api/server';
import { streams } from '@storage/contracts/events';
import { hashPassword } from '@storage/domain/auth/passwords';
import { createPostgresEventStore } from '@storage/eventstore/postgres';
import { readConfig } from '@storage/platform/config';
import { migrateReadModel } from '@storage/platform/migrate';
import { queueConnection } from '@storage/platform/queues';
import { readModelProjections } from '@storage/projector/projections';
import { type ProjectorService, startProjector } from '@storage/projector/service';
import { verifyReadModel } from '@storage/projector/verify';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const migrationsDir = fileURLToPath(new URL('../../platform/migrations/', import.meta.url));

/** The read model as an install before migration 012 had it. */
async function migrateBefore012(client: pg.Client) {
  await client.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const files = (await readdir(migrationsDir)).filter((f) => /^\d+_.+\.sql$/.test(f) && f < '012').sort();
  for (const file of files) {
    await client.query(await readFile(`${migrationsDir}${file}`, 'utf8'));
    await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
  }
}

describe('migration 012 on an install whose events carry password hashes', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let api: ApiServer | undefined;
  let projector: ProjectorService | undefined;
  const ada = { id: randomUUID(), email: 'ada@legacy.test', old: 'first old password', current: 'second old password' };
  const bob = { id: randomUUID(), email: 'bob@legacy.test', current: 'bobs old password' };
  /** Only in the read table (as on EventStoreDB, whose events this database does not hold). */
  const cy = { id: randomUUID(), email: 'cy@legacy.test', current: 'cys old password' };
  const hashes: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('legacy_credentials');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await migrateBefore012(client);
    const store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    const v1 = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      data,
      metadata: { actor: { type: 'system' as const }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: new Date().toISOString() },
    });
    const [adaOld, adaCurrent, bobCurrent, cyCurrent] = await Promise.all([ada.old, ada.current, bob.current, cy.current].map(hashPassword));
    hashes.push(adaOld!, adaCurrent!, bobCurrent!, cyCurrent!);
    const registered = (who: { id: string; email: string }, passwordHash: string) =>
      v1('staff_registered', { staffId: who.id, email: who.email, firstName: 'Legacy', lastName: 'Member', role: 'owner', passwordHash });
    await store.append(streams.staff(ada.id), [registered(ada, adaOld!), v1('staff_password_changed', { staffId: ada.id, passwordHash: adaCurrent })], {
      expectedRevision: 'no_stream',
    });
    await store.append(streams.staff(bob.id), [registered(bob, bobCurrent!)], { expectedRevision: 'no_stream' });
    await store.close();
    await client.query(
      `INSERT INTO staff (id, email, first_name, last_name, role, password_hash, created_at, updated_at) VALUES ($1, $2, 'Cy', 'Legacy', 'manager', $3, now(), now())`,
      [cy.id, cy.email, cyCurrent],
    );
    expect(await migrateReadModel(database.url)).toContain('012_staff_credentials.sql');
  });

  afterAll(async () => {
    await projector?.stop();
    await api?.close();
    await client?.end();
    await database?.drop();
  });

  it('moves each member latest hash into staff_credentials under the legacy credential id (the staff id)', async () => {
    const { rows } = await client.query<{ credential_id: string; staff_id: string; password_hash: string }>(
      'SELECT credential_id::text, staff_id::text, password_hash FROM staff_credentials ORDER BY password_hash',
    );
    expect(rows.map((r) => [r.credential_id, r.staff_id, r.password_hash]).sort()).toEqual(
      [
        [ada.id, ada.id, hashes[1]],
        [bob.id, bob.id, hashes[2]],
        [cy.id, cy.id, hashes[3]],
      ].sort(),
    );
  });

  it('leaves no hash in the stored events, and the table append-only again', async () => {
    const { rows } = await client.query<{ type: string; data: Record<string, unknown> }>(`SELECT type, data FROM event_store.events`);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.data).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(rows)).not.toContain('scrypt');
    await expect(client.query(`UPDATE event_store.events SET data = data WHERE false`)).rejects.toThrow('append-only');
    const columns = await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'staff'`);
    expect(columns.rows.map((c) => c.column_name)).not.toContain('password_hash');
  });

  it('signs the members in with their current passwords, not the older ones; the rebuilt staff table agrees', async () => {
    const config = { ...readConfig({}), redisUrl: undefined };
    const queuePrefix = `test-${database.name}`;
    api = await createApiServer({ config, databaseUrl: database.url, sessionKey: randomBytes(32), queuePrefix });
    projector = await startProjector({
      pool: api.pool,
      store: api.store,
      connection: queueConnection({ redisUrl: undefined, databaseUrl: database.url, prefix: queuePrefix }),
      payments: {},
      schedule: config,
    });
    const head = await api.store.newestPosition();
    expect(await api.afterAppend(head!, 30_000)).toBe(true);
    const login = (email: string, password: string) => api!.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect((await login(ada.email, ada.current)).statusCode).toBe(200);
    expect((await login(ada.email, ada.old)).statusCode).toBe(401);
    expect((await login(bob.email, bob.current)).statusCode).toBe(200);
    expect((await login(cy.email, cy.current)).statusCode).toBe(200);

    const staffProjection = readModelProjections.filter((p) => p.name === 'staff');
    const verification = await verifyReadModel(api.pool, api.store, staffProjection);
    // Cy has no events in this store (the EventStoreDB case): only that row differs.
    expect(verification.differences).toEqual([{ table: 'staff', key: { id: cy.id }, kind: 'not in rebuild', columns: {} }]);
  }, 120_000);

  it('an install migrated already is left alone', async () => {
    expect(await migrateReadModel(database.url)).toEqual([]);
  });
});
