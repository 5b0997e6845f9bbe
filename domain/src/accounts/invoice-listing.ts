import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { accountAggregate } from './account.ts';

// A history written before accounts listed their invoices (account_invoice_listed) has invoices
// no account knows. Once per install, before the API takes a command, they are listed: the log is
// read once for the invoices it holds, and each renter's unlisted ones are appended to their
// account in one append. Invoices written since are listed as they are made.

const UPGRADE = 'account-invoice-listing';
const READ_BATCH = 5000;

const Done = z.object({ done: z.boolean() });
const InvoiceGenerated = z.object({ invoiceId: z.string(), customerId: z.string() });

/** Lists every invoice of the history on its renter's account, once per install; returns how many it listed (0 when done before). */
export async function listEarlierInvoices(pool: DatabasePool, store: EventStore, now = new Date()): Promise<number> {
  return pool.connect(async (connection) => {
    // Two processes starting at once: the second waits for the first and finds it done.
    await connection.query(sql.unsafe`SELECT pg_advisory_lock(hashtext(${UPGRADE}))`);
    try {
      const done = await connection.oneFirst(sql.type(Done)`SELECT exists(SELECT 1 FROM write_side_upgrades WHERE name = ${UPGRADE}) AS done`);
      if (done) return 0;
      const byCustomer = new Map<string, string[]>();
      let after: Position | null = null;
      for (;;) {
        const batch = await store.readAll({ after, limit: READ_BATCH });
        for (const event of batch) {
          if (event.type !== 'invoice_generated') continue;
          const { invoiceId, customerId } = InvoiceGenerated.parse(event.data);
          byCustomer.set(customerId, [...(byCustomer.get(customerId) ?? []), invoiceId]);
        }
        if (batch.length < READ_BATCH) break;
        after = batch.at(-1)!.position;
      }
      const ctx: CommandContext = { store, actor: { type: 'system' }, correlationId: randomUUID(), now };
      let listed = 0;
      for (const [customerId, invoiceIds] of byCustomer) {
        const result = await handleCommand(ctx, streams.account(customerId), accountAggregate, (state) =>
          invoiceIds
            .filter((id) => !state.invoiceIds.has(id))
            .map((invoiceId) => ({ type: 'account_invoice_listed' as const, data: { customerId, invoiceId } })),
        );
        listed += result.events.length;
      }
      await connection.query(sql.unsafe`
        INSERT INTO write_side_upgrades (name, detail) VALUES (${UPGRADE}, ${`${listed} invoices of ${byCustomer.size} renters listed on their accounts`})`);
      return listed;
    } finally {
      await connection.query(sql.unsafe`SELECT pg_advisory_unlock(hashtext(${UPGRADE}))`);
    }
  });
}
