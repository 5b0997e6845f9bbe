import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { z } from 'zod';
import { type CommandContext, handleCommand } from '../commands/handle.ts';
import { dataOfEvents, oncePerInstall } from '../commands/upgrades.ts';
import { customerAggregate, type ListedLease } from './customer.ts';

// A history written before customers listed their leases (customer_lease_listed) has leases no
// customer's stream names, which an archive would not see. Once per install, before the API takes
// a command, they are listed: the log is read once for the leases it started, and each customer's
// unlisted ones are appended to their stream in one append. Move-ins since list their own.

const LeaseStarted = z.object({ leaseId: z.string(), customerId: z.string(), unitId: z.string() });

/** Lists every lease of the history on its customer's stream, once per install; returns how many it listed (0 when done before). */
export async function listEarlierLeases(pool: DatabasePool, store: EventStore, now = new Date()): Promise<number> {
  return oncePerInstall(pool, 'customer-lease-listing', async () => {
    const byCustomer = new Map<string, ListedLease[]>();
    for (const data of await dataOfEvents(store, 'lease_started')) {
      const { leaseId, customerId, unitId } = LeaseStarted.parse(data);
      const listed = byCustomer.get(customerId);
      if (listed) listed.push({ leaseId, unitId });
      else byCustomer.set(customerId, [{ leaseId, unitId }]);
    }
    const ctx: CommandContext = { store, actor: { type: 'system' }, correlationId: randomUUID(), now };
    let listed = 0;
    for (const [customerId, leases] of byCustomer) {
      // An archived customer's leases are listed too: restored, they are the customer's again.
      const result = await handleCommand(ctx, streams.customer(customerId), customerAggregate, (state): DomainEvent[] => {
        if (state.status === 'none') return [];
        const known = new Set(state.leases.map((lease) => lease.leaseId));
        return leases.filter((lease) => !known.has(lease.leaseId)).map((lease) => ({ type: 'customer_lease_listed', data: { customerId, ...lease } }));
      });
      listed += result.events.length;
    }
    return { appended: listed, detail: `${listed} leases of ${byCustomer.size} customers listed on their streams` };
  });
}
