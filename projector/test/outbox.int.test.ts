import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { smtpMailer } from '@storage/platform/mail/smtp';
import { migrateReadModel } from '@storage/platform/migrate';
import { defaultOutboxPolicy, deliverDue } from '@storage/projector/outbox/worker';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The outbox worker against a real SMTP server: workers racing for the same due messages send
// each once (FOR UPDATE SKIP LOCKED), and a message claimed by a worker that died is left alone
// until its claim runs out, then sent by another.

describe('the outbox worker', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    database = await createTestDatabase('outbox');
    await migrateReadModel(database.url);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = await createDatabasePool(database.url);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  /** A pending message due in `dueInSeconds` (negative: overdue). */
  async function pending(to: string, dueInSeconds = 0) {
    const id = randomUUID();
    await pool.query(sql.unsafe`
      INSERT INTO outbox_messages (id, event_id, template_key, to_address, subject, body, status, next_attempt_at)
      VALUES (${id}, ${randomUUID()}, 'late_notice', ${to}, 'Late notice', 'Please pay.', 'pending', now() + ${`${dueInSeconds} seconds`}::interval)`);
    return id;
  }
  const status = (id: string) =>
    pool.one(sql.type(z.object({ status: z.string(), attempts: z.number() }))`SELECT status, attempts FROM outbox_messages WHERE id = ${id}`);

  it('sends each due message once, however many workers race for them', async () => {
    const addresses = Array.from({ length: 30 }, (_, i) => `race-${i}@renter.test`);
    const ids = [];
    for (const to of addresses) ids.push(await pending(to));
    const mailers = [1, 2, 3].map(() => smtpMailer(`smtp://127.0.0.1:${smtp.port}`, 'office@riverside.test'));
    const worker = async (mailer: (typeof mailers)[number]) => {
      while ((await deliverDue({ pool, store }, mailer, defaultOutboxPolicy)) > 0) {}
    };
    await Promise.all(mailers.map(worker));
    await Promise.all(mailers.map((m) => m.close()));
    const received = smtp.received.flatMap((m) => m.to).filter((to) => to.startsWith('race-'));
    expect(received.sort()).toEqual([...addresses].sort());
    for (const id of ids) expect(await status(id)).toEqual({ status: 'sent', attempts: 1 });
  });

  it('leaves a message claimed by a worker that died until its claim runs out, then sends it', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, 'office@riverside.test');
    // A worker took it (attempt counted, held for the claim period) and died before sending.
    const id = await pending('claimed@renter.test', 300);
    await pool.query(sql.unsafe`UPDATE outbox_messages SET attempts = 1 WHERE id = ${id}`);
    expect(await deliverDue({ pool, store }, mailer)).toBe(0);
    expect(smtp.received.filter((m) => m.to.includes('claimed@renter.test'))).toHaveLength(0);
    // The claim ran out.
    await pool.query(sql.unsafe`UPDATE outbox_messages SET next_attempt_at = now() - interval '1 second' WHERE id = ${id}`);
    expect(await deliverDue({ pool, store }, mailer)).toBe(1);
    expect(smtp.received.filter((m) => m.to.includes('claimed@renter.test'))).toHaveLength(1);
    expect(await status(id)).toEqual({ status: 'sent', attempts: 2 });
    await mailer.close();
  });
});
