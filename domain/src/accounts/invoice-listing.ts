import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { z } from 'zod';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { dataOfEvents, oncePerInstall } from '../commands/upgrades.ts';
import { accountAggregate } from './account.ts';

// A history written before accounts listed their invoices (account_invoice_listed) has invoices
// no account knows. Once per install, before the API takes a command, they are listed: the log is
// read once for the invoices it holds, and each renter's unlisted ones are appended to their
// account in one append. Invoices written since are listed as they are made.

const InvoiceGenerated = z.object({ invoiceId: z.string(), customerId: z.string() });

/** Lists every invoice of the history on its renter's account, once per install; returns how many it listed (0 when done before). */
export async function listEarlierInvoices(pool: DatabasePool, store: EventStore, now = new Date()): Promise<number> {
  return oncePerInstall(pool, 'account-invoice-listing', async () => {
    const byCustomer = new Map<string, string[]>();
    for (const data of await dataOfEvents(store, 'invoice_generated')) {
      const { invoiceId, customerId } = InvoiceGenerated.parse(data);
      const listed = byCustomer.get(customerId);
      if (listed) listed.push(invoiceId);
      else byCustomer.set(customerId, [invoiceId]);
    }
    const ctx: CommandContext = { store, actor: { type: 'system' }, correlationId: randomUUID(), now };
    let listed = 0;
    for (const [customerId, invoiceIds] of byCustomer) {
      const result = await handleCommand(ctx, streams.account(customerId), accountAggregate, (state) =>
        invoiceIds.filter((id) => !state.invoiceIds.has(id)).map((invoiceId) => ({ type: 'account_invoice_listed' as const, data: { customerId, invoiceId } })),
      );
      listed += result.events.length;
    }
    return { appended: listed, detail: `${listed} invoices of ${byCustomer.size} renters listed on their accounts` };
  });
}
