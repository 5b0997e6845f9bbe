import { streams } from '@storage/contracts/events';
import { CreateInvoiceRequest, InvoiceDetail, InvoiceListItem, ListInvoicesQuery, statusesWithReason } from '@storage/contracts/invoices';
import { pageHeaders } from '@storage/contracts/paging';
import { ForbiddenError, NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import type { InvoiceState } from '@storage/domain/invoices/invoice';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { invoiceHistory } from './history.ts';
import { getInvoice, linesOf, listInvoices, paymentsOf } from './queries.ts';

export async function invoiceRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Invoices', access: 'staff' });
  // Auditors read; the others bill.
  const billing = { roles: ['owner', 'manager', 'clerk'] } as const;

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

  app.get(
    '/api/invoices',
    { schema: { summary: 'List invoices', querystring: ListInvoicesQuery, response: { 200: page('A page of invoices', InvoiceListItem) } } },
    async (request, reply) => {
      const { invoices, paging } = await listInvoices(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(invoices);
    },
  );

  app.get(
    '/api/invoices/:id',
    {
      schema: {
        summary: 'Get an invoice',
        description: 'The invoice with its lines, its payments and its history.',
        params: IdParams,
        response: { 200: json('The invoice', InvoiceDetail) },
      },
    },
    async (request): Promise<InvoiceDetail> => {
      const { id } = request.params;
      const [invoice, lines, payments, history] = await Promise.all([
        getInvoice(deps.pool, id),
        linesOf(deps.pool, id),
        paymentsOf(deps.pool, id),
        invoiceHistory(deps.store, deps.pool, id),
      ]);
      if (!invoice) throw new NotFoundError('Invoice not found');
      return { ...invoice, lines, payments, history };
    },
  );

  app.post(
    '/api/invoices',
    {
      config: billing,
      schema: {
        summary: 'Generate an invoice',
        description:
          "The status chosen is what happened, with its consequences: created `paid`, it records its payment in full (`payment`: a desk method, and a check's number or a transfer's reference in `reference`); `cancelled` or `written_off`, the void or the write-off (`reason`; owners and managers only, as a void and a write-off are); `overdue`, the renter's standing becomes overdue. So the ledger, the renter's balance and the reports agree from the start.",
        body: CreateInvoiceRequest,
        response: { 201: json('The new invoice', InvoiceListItem), 403: errorAnswer('A clerk may not create an invoice cancelled or written off') },
      },
    },
    async (request, reply) => {
      // A void and a write-off are money given back, whenever they are recorded: owners and managers only.
      const role = request.staff?.role;
      if (statusesWithReason.includes(request.body.status) && role !== 'owner' && role !== 'manager') {
        throw new ForbiddenError('Only owners and managers create an invoice cancelled or written off');
      }
      const result = await generateInvoice(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await currentInvoice(result.state));
    },
  );

  app.post(
    '/api/invoices/:id/send',
    {
      config: billing,
      schema: {
        summary: 'Send an invoice',
        description: 'Marks a draft invoice sent.',
        params: IdParams,
        response: { 200: json('The invoice as sent', InvoiceListItem) },
      },
    },
    async (request) => {
      const result = await sendInvoice(commandContext(deps, request), request.params.id);
      if (result.position) await deps.afterAppend(result.position);
      return currentInvoice(result.state);
    },
  );
}
