import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { recordDeskPayment } from '@storage/domain/payments/desk';
import { createPostgresEventStore, type PostgresEventStore } from '@storage/eventstore/postgres';
import { createDatabasePool, type DatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { catchUp, catchUpTo, ensureCheckpoints } from '@storage/projector/runner';
import { createTestDatabase, type TestDatabase } from '@storage/testing/database';
import { renterFields } from '@storage/testing/renters';
import { statementsOf } from '@storage/testing/statements';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a batch costs in round trips when nothing fails (failures: failing-projection.int.test.ts):
// every lane in one session, without a savepoint each, the checkpoints locked and their
// failures read in one statement, the rows the events name loaded in one statement, and the rows
// and the checkpoints written in one statement; the rows the projections read that the events do
// not name (found by a dry run of the batch) loaded in one more, not one round trip each.

describe('a batch where nothing fails', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let pool: DatabasePool;

  beforeAll(async () => {
    database = await createTestDatabase('batch_statements');
    await migrateReadModel(database.url);
    store = await createPostgresEventStore({ connectionString: database.url });
    await store.migrate();
    pool = await createDatabasePool(database.url);
    await ensureCheckpoints(pool, readModelProjections);
    await catchUp(pool, store, readModelProjections);
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await database?.drop();
  });

  it('applies every lane without a savepoint, reading the log once (and its newest position once) and the checkpoints with their failures once', async () => {
    const customerId = randomUUID();
    await store.append(
      `customer-${customerId}`,
      [
        {
          id: randomUUID(),
          type: 'customer_added',
          data: {
            customerId,
            firstName: 'Batch',
            lastName: 'Statements',
            email: `batch-${customerId.slice(0, 8)}@example.com`,
            phone: null,
            address: null,
            emergencyContact: null,
            emergencyPhone: null,
            status: 'active',
            facilityId: null,
          },
          metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const { result: applied, statements } = await statementsOf(() => catchUp(pool, store, readModelProjections));
    expect(applied).toBe(1);
    expect(statements.filter((s) => /^SAVEPOINT/i.test(s))).toEqual([]);
    // The batch, then (once the transaction has ended) whether anything committed lies past what it could read.
    const logReads = statements.filter((s) => /FROM event_store\.events/.test(s));
    expect(logReads).toHaveLength(2);
    expect(logReads[1]).not.toContain('pg_current_snapshot');
    // The checkpoints locked with their failures in one statement, then advanced.
    expect(statements.filter((s) => /projection_checkpoints|projection_failures/.test(s))).toHaveLength(2);
    expect(statements.filter((s) => /projection_failures/.test(s) && /FOR UPDATE/.test(s))).toHaveLength(1);
    // The rows the event names, of every table, and the alert toggles its notification reads, loaded in one statement.
    const loads = statements.filter((s) => /^SELECT/i.test(s) && /FROM "(customers|metrics_customers|settings)"/.test(s));
    expect(loads).toHaveLength(1);
    for (const table of ['customers', 'metrics_customers', 'settings']) expect(loads[0]).toContain(`FROM "${table}" t`);
    // In all: the transaction, the checkpoints, the log, the rows, the writes, the log's newest (the table shapes are read once per process).
    expect(statements.filter((s) => !/pg_attribute/.test(s))).toHaveLength(7);
    // Every table the event changes and the checkpoints, written in one statement.
    const writes = statements.filter((s) => /^\s*(WITH|INSERT|UPDATE|DELETE)/i.test(s));
    expect(writes).toHaveLength(1);
    for (const table of ['audit_log', 'customers', 'activities', 'metrics_customers', 'metrics_daily']) expect(writes[0]).toContain(`INSERT INTO "${table}"`);
    expect(writes[0]).toMatch(/UPDATE projection_checkpoints/);
    const [customer] = await pool.any(sql.unsafe`SELECT first_name, email FROM customers WHERE id = ${customerId}`);
    expect(customer).toEqual({ first_name: 'Batch', email: `batch-${customerId.slice(0, 8)}@example.com` });
  });

  it('loads the rows a dry run of the batch finds it will read, keyed by other rows, in one statement: a desk payment', async () => {
    const ctx: CommandContext = { store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() };
    const facility = await addFacility(ctx, { name: `Dry ${randomUUID().slice(0, 6)}`, address: '1 Way', phone: null, managerName: null, timeZone: 'UTC' });
    if (facility.state.status !== 'current') throw new Error('no facility');
    const facilityId = facility.state.facilityId;
    const customer = await addCustomer(ctx, renterFields('Dry', 'Run', randomUUID().slice(0, 8), { facilityId }));
    if (customer.state.status === 'none') throw new Error('no customer');
    const customerId = customer.state.customerId;
    const today = new Date().toISOString().slice(0, 10);
    const invoice = await generateInvoice(ctx, {
      invoiceNumber: `INV-D-${randomUUID().slice(0, 8)}`,
      customerId,
      leaseId: null,
      amount: '100.00',
      dueDate: today,
      status: 'draft',
      description: 'Rent',
    });
    if (invoice.state.status === 'none') throw new Error('no invoice');
    const sent = await sendInvoice(ctx, invoice.state.invoiceId);
    // Passed before the payment, so that the catch-up measured below applies the payment alone.
    if (sent.position) await catchUpTo(pool, store, readModelProjections, sent.position);
    await recordDeskPayment(ctx, { customerId, amount: '100.00', method: 'cash', reference: null });

    const { statements } = await statementsOf(() => catchUp(pool, store, readModelProjections));
    // The month's money totals and the receipt's place in them are keyed by the ledger entry's
    // facility and date, which the events do not carry: read one at a time, they were a round
    // trip each inside the batch's transaction.
    const rowLoads = statements.filter((s) => /^SELECT/i.test(s) && / FROM "[a-z_]+"/.test(s) && !/pg_attribute/.test(s));
    expect(rowLoads.filter((s) => /^SELECT \* FROM "/.test(s))).toEqual([]);
    expect(rowLoads).toHaveLength(2);
    expect(rowLoads[1]).toContain('FROM "money_months" t');
    expect(rowLoads[1]).toContain('FROM "money_receipt_months" t');
    const months = await pool.any(sql.unsafe`SELECT scope, revenue::text, payments FROM money_months WHERE month = ${today.slice(0, 7)} ORDER BY scope`);
    expect(months).toEqual(expect.arrayContaining([{ scope: facilityId, revenue: '100.00', payments: 1 }]));
  });
});
