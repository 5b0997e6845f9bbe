// A page number typed deep into the audit log or the activity feed, with no cursor, is read from
// the day it starts in (migration 043's per-day counts, api/src/http/list-page.ts PageSpans): it
// must be exactly the page OFFSET reads, in either order, on an install upgraded with rows already
// there, after events that occurred earlier than those already logged (back-dated) are projected,
// and past the end.

import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { listActivities } from '@storage/api/activities/queries';
import { listAuditEvents } from '@storage/api/history/queries';
import { ListActivitiesQuery } from '@storage/contracts/activities';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import type { ProjectedEvent } from '@storage/projector/projection';
import { activitiesProjection } from '@storage/projector/projections/activities';
import { auditLogProjection } from '@storage/projector/projections/audit-log';
import { applyEvents } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import pg from 'pg';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const migrationsDir = fileURLToPath(new URL('../../platform/migrations/', import.meta.url));
const ROWS = 2_600;
const PAGE_SIZE = 7;
/** Pages whose first row is past the 2,000 rows a page by number reads plainly by OFFSET, to the end and one beyond. */
const DEEP_PAGES = Array.from({ length: Math.ceil(ROWS / PAGE_SIZE) - 287 + 3 }, (_, i) => 287 + i);

describe('a page number typed deep into the audit log and the activity feed', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let pool: DatabasePool;

  beforeAll(async () => {
    database = await createTestDatabase('page_spans');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const file of (await readdir(migrationsDir)).filter((f) => /^\d+_.+\.sql$/.test(f) && f < '043').sort()) {
      await client.query(await readFile(`${migrationsDir}${file}`, 'utf8'));
      await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    // An install from before 043: rows over twelve days, logged in no particular order of when
    // they occurred, many at the same instant (ties go by the log's order).
    await client.query(`SELECT setseed(0.43)`);
    await client.query(
      `INSERT INTO audit_log (position, event_id, type, stream_name, actor_type, occurred_at, recorded_at, schema_version, data)
       SELECT n, gen_random_uuid(), 'customer_added', 'customer-' || gen_random_uuid(), 'system',
              to_char(timestamp '2026-03-01' + (floor(random() * 12 * 24) || ' hours')::interval, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              '2026-03-20T00:00:00.000Z', 1, '{}'
       FROM generate_series(1, $1::int) n`,
      [ROWS],
    );
    await client.query(
      `INSERT INTO activities (id, type, tab, description, metadata, created_at, search_text)
       SELECT gen_random_uuid(), 'customer_added', 'customers', 'New customer ' || n, '{}',
              timestamptz '2026-03-01 00:00:00+00' + (floor(random() * 12 * 24) || ' hours')::interval, ''
       FROM generate_series(1, $1::int) n`,
      [ROWS],
    );
    expect(await migrateReadModel(database.url)).toContain('043_page_spans.sql');
    pool = await createDatabasePool(database.url);
  });

  afterAll(async () => {
    await pool?.end();
    await client?.end();
    await database?.drop();
  });

  /** Each day's count as kept, against the rows themselves. */
  async function expectCountsOfTheRows() {
    const kept = await client.query(`SELECT day, entries::int AS n FROM audit_log_days WHERE entries > 0 ORDER BY day`);
    const counted = await client.query(`SELECT left(occurred_at, 10) AS day, count(*)::int AS n FROM audit_log GROUP BY 1 ORDER BY 1`);
    expect(kept.rows).toEqual(counted.rows);
    const keptFeed = await client.query(`SELECT day, entries::int AS n FROM activity_days WHERE entries > 0 ORDER BY day`);
    const countedFeed = await client.query(
      `SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') AS day, count(*)::int AS n FROM activities GROUP BY 1 ORDER BY 1`,
    );
    expect(keptFeed.rows).toEqual(countedFeed.rows);
    expect(kept.rows.length).toBeGreaterThan(10);
  }

  /** Every deep page of both lists, in both orders, as the plain OFFSET query reads it. */
  async function expectPagesAsOffsetReadsThem() {
    for (const order of ['desc', 'asc'] as const) {
      const direction = order === 'desc' ? 'DESC' : 'ASC';
      for (const page of DEEP_PAGES) {
        const offset = (page - 1) * PAGE_SIZE;
        const log = await listAuditEvents(pool, { sort: 'occurredAt', order }, { page, pageSize: PAGE_SIZE });
        const logByOffset = await client.query(
          `SELECT event_id::text AS id FROM audit_log ORDER BY occurred_at ${direction}, position ${direction} LIMIT $1 OFFSET $2`,
          [PAGE_SIZE, offset],
        );
        expect(
          log.events.map((e) => e.id),
          `log page ${page} ${order}`,
        ).toEqual(logByOffset.rows.map((r) => r.id));
        const feed = await listActivities(pool, ListActivitiesQuery.parse({ sort: 'createdAt', order, page, pageSize: PAGE_SIZE }));
        const feedByOffset = await client.query(
          `SELECT id::text FROM activities ORDER BY created_at ${direction}, recorded_order ${direction} LIMIT $1 OFFSET $2`,
          [PAGE_SIZE, offset],
        );
        expect(
          feed.activities.map((a) => a.id),
          `feed page ${page} ${order}`,
        ).toEqual(feedByOffset.rows.map((r) => r.id));
        // The page after it is there exactly when OFFSET finds more rows.
        const more = (await client.query(`SELECT count(*)::int AS n FROM audit_log`)).rows[0].n > offset + PAGE_SIZE;
        expect(log.info.nextCursor !== null, `log page ${page} ${order} has a next page`).toBe(more);
      }
    }
  }

  it('counts the rows already there on upgrade, per day', async () => {
    await expectCountsOfTheRows();
  });

  it('reads each deep page as OFFSET does, newest first and oldest first', async () => {
    await expectPagesAsOffsetReadsThem();
  });

  it('keeps the counts and the pages right when events that occurred earlier are projected after the rest', async () => {
    // Back-dated into days already there, at instants already taken, and onto new days before and after.
    const instants = [
      '2026-03-05T06:00:00.000Z',
      '2026-03-05T06:00:00.000Z',
      '2026-03-02T13:00:00.000Z',
      '2026-02-20T08:30:00.000Z',
      '2026-03-30T23:59:59.999Z',
    ];
    const events = Array.from({ length: 60 }, (_, i): ProjectedEvent => {
      const customerId = randomUUID();
      return {
        id: randomUUID(),
        type: 'customer_added',
        streamName: `customer-${customerId}`,
        revision: 0n,
        data: { customerId, firstName: 'Back', lastName: `Dated ${i}`, email: `back${i}@example.com`, phone: '555-0100', status: 'active', facilityId: null },
        metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: instants[i % instants.length]! },
        position: { hi: 1n, lo: BigInt(i) },
        recordedAt: '2026-03-21T00:00:00.000Z',
      } as ProjectedEvent;
    });
    // Two batches, as the projector commits them.
    for (const batch of [events.slice(0, 25), events.slice(25)])
      await pool.transaction((tx) => applyEvents(tx, [auditLogProjection, activitiesProjection], batch));
    await expectCountsOfTheRows();
    await expectPagesAsOffsetReadsThem();
  });

  it('reads the page from the counts (a count off by one moves the page by one row)', async () => {
    const page = DEEP_PAGES[5]!;
    const before = await listAuditEvents(pool, { sort: 'occurredAt', order: 'desc' }, { page, pageSize: PAGE_SIZE });
    await pool.query(sql.unsafe`UPDATE audit_log_days SET entries = entries + 1 WHERE day = (SELECT max(day) FROM audit_log_days)`);
    const skewed = await listAuditEvents(pool, { sort: 'occurredAt', order: 'desc' }, { page, pageSize: PAGE_SIZE });
    await pool.query(sql.unsafe`UPDATE audit_log_days SET entries = entries - 1 WHERE day = (SELECT max(day) FROM audit_log_days)`);
    // One more row counted before the page: the page starts one row earlier.
    expect(skewed.events.map((e) => e.id).slice(1)).toEqual(before.events.map((e) => e.id).slice(0, PAGE_SIZE - 1));

    const query = ListActivitiesQuery.parse({ page, pageSize: PAGE_SIZE });
    const feed = await listActivities(pool, query);
    await pool.query(sql.unsafe`UPDATE activity_days SET entries = entries + 1 WHERE day = (SELECT max(day) FROM activity_days)`);
    const skewedFeed = await listActivities(pool, query);
    await pool.query(sql.unsafe`UPDATE activity_days SET entries = entries - 1 WHERE day = (SELECT max(day) FROM activity_days)`);
    expect(skewedFeed.activities.map((a) => a.id).slice(1)).toEqual(feed.activities.map((a) => a.id).slice(0, PAGE_SIZE - 1));
  });
});
