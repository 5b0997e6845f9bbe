import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { Id } from '@storage/contracts/fields';
import { CreateInvoiceRequest, type InvoiceDetail, type InvoiceListItem, ListInvoicesQuery } from '@storage/contracts/invoices';
import { NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import type { InvoiceState } from '@storage/domain/invoices/invoice';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { invoiceHistory } from './history.ts';
import { getInvoice, listInvoices, paymentsOf } from './queries.ts';

const InvoiceParams = z.strictObject({ id: Id });

export async function invoiceRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  // Auditors read; the others bill.
  const billing = { preHandler: requireRole('owner', 'manager', 'clerk') };

  /** The invoice as the read model shows it, or (when it is still behind after the bounded wait) as the write side knows it. */
  async function currentInvoice(state: InvoiceState): Promise<InvoiceListItem> {
    if (state.status === 'none') throw new Error('A written invoice has no state');
    const projected = await getInvoice(deps.pool, state.invoiceId);
    if (projected) return { ...projected, status: state.fields.status };
    const { state: customer } = await loadAggregate(deps.store, streams.customer(state.fields.customerId), customerAggregate);
    if (customer.status === 'none') throw new Error('An invoice names a customer that does not exist');
    const now = new Date().toISOString();
    const { firstName, lastName, email, facilityId } = customer.fields;
    return {
      id: state.invoiceId,
      ...state.fields,
      paidDate: null,
      createdAt: now,
      updatedAt: now,
      customer: { id: customer.customerId, facilityId, email, firstName, lastName },
    };
  }

  app.get('/api/invoices', async (request, reply) => {
    const query = parseInput(ListInvoicesQuery, request.query, 'query');
    const { invoices, total } = await listInvoices(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(invoices);
  });

  app.get('/api/invoices/:id', async (request): Promise<InvoiceDetail> => {
    const { id } = parseInput(InvoiceParams, request.params, 'params');
    const [invoice, payments, history] = await Promise.all([getInvoice(deps.pool, id), paymentsOf(deps.pool, id), invoiceHistory(deps.store, deps.pool, id)]);
    if (!invoice) throw new NotFoundError('Invoice not found');
    return { ...invoice, payments, history };
  });

  app.post('/api/invoices', billing, async (request, reply) => {
    const fields = parseInput(CreateInvoiceRequest, request.body);
    const result = await generateInvoice(commandContext(deps, request), fields);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send(await currentInvoice(result.state));
  });

  app.post('/api/invoices/:id/send', billing, async (request) => {
    const { id } = parseInput(InvoiceParams, request.params, 'params');
    const result = await sendInvoice(commandContext(deps, request), id);
    if (result.position) await deps.afterAppend(result.position);
    return currentInvoice(result.state);
  });
}
