import { randomUUID } from 'node:crypto';
import { ConflictError, DomainRuleError, NotFoundError } from '@storage/domain/commands/errors';
import type { CommandContext } from '@storage/domain/commands/handle';
import { markCustomerOverdue, markInvoiceOverdue } from '@storage/domain/invoices/commands';
import type { EventStore, Position } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const CandidateRow = z.object({ id: z.string() });

/**
 * The invoices to look at: sent ones whose due date has passed, and overdue ones whose customer
 * is still active (the customer's half of an earlier run may not have happened). The read model
 * only nominates them; each invoice's and customer's own stream decides.
 */
async function candidates(pool: DatabasePool, today: string): Promise<readonly string[]> {
  return pool.anyFirst(sql.type(CandidateRow)`
    SELECT i.id::text FROM invoices i WHERE i.status = 'sent' AND i.due_date < ${today}
    UNION
    SELECT i.id::text FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE i.status = 'overdue' AND c.status = 'active' AND NOT c.archived`);
}

export interface OverdueRun {
  invoicesMarked: number;
  customersMarked: number;
  /** Where the last appended event is; null when the run changed nothing. */
  position: Position | null;
}

/**
 * Marks every sent invoice past its due date overdue (invoice_overdue), and its customer overdue
 * (customer_updated). Running it again changes nothing.
 */
export async function markOverdueInvoices(deps: { pool: DatabasePool; store: EventStore }, now: Date): Promise<OverdueRun> {
  // A fresh correlation id per run; each event names the one it was decided on as its causation.
  const ctx: CommandContext = { store: deps.store, actor: { type: 'system' }, correlationId: randomUUID(), now, causedByStreamHead: true };
  const today = now.toISOString().slice(0, 10);
  const run: OverdueRun = { invoicesMarked: 0, customersMarked: 0, position: null };
  const overdueCustomers = new Set<string>();
  for (const invoiceId of await candidates(deps.pool, today)) {
    try {
      const result = await markInvoiceOverdue(ctx, invoiceId);
      if (result.state.status === 'current' && result.state.fields.status === 'overdue') overdueCustomers.add(result.state.fields.customerId);
      if (result.position) {
        run.invoicesMarked++;
        run.position = result.position;
      }
    } catch (error) {
      // Paid, cancelled or not yet due after all: the read model was behind its stream.
      if (!(error instanceof ConflictError || error instanceof DomainRuleError || error instanceof NotFoundError)) throw error;
    }
  }
  for (const customerId of overdueCustomers) {
    const result = await markCustomerOverdue(ctx, customerId);
    if (result.position) {
      run.customersMarked++;
      run.position = result.position;
    }
  }
  return run;
}
