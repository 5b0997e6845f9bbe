import {
  AddCustomerNoteRequest,
  ChangeCustomerStandingRequest,
  CreateCustomerRequest,
  Customer,
  CustomerAccount,
  CustomerNote,
  ListCustomersQuery,
  UpdateCustomerRequest,
} from '@storage/contracts/customers';
import { pageHeaders } from '@storage/contracts/paging';
import { NotFoundError } from '@storage/domain/commands/errors';
import { addCustomer, addCustomerNote, archiveCustomer, changeCustomerStanding, restoreCustomer, updateCustomer } from '@storage/domain/customers/commands';
import type { CustomerFields } from '@storage/domain/customers/customer';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { empty, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { paymentsOfCustomer } from '../invoices/queries.ts';
import { getPortalAccount } from '../portal/queries.ts';
import { getCustomer, listCustomers, notesOfCustomer } from './queries.ts';

export async function customerRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Customers', access: 'staff' });

  app.get(
    '/api/customers',
    { schema: { summary: 'List customers', querystring: ListCustomersQuery, response: { 200: page('A page of customers', Customer) } } },
    async (request, reply) => {
      const { customers, paging } = await listCustomers(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(customers);
    },
  );

  app.get(
    '/api/customers/:id',
    { schema: { summary: 'Get a customer', params: IdParams, response: { 200: json('The customer', Customer) } } },
    async (request) => {
      const customer = await getCustomer(deps.pool, request.params.id);
      if (!customer) throw new NotFoundError('Customer not found');
      return customer;
    },
  );

  app.get(
    '/api/customers/:id/account',
    {
      schema: {
        summary: "A customer's balance and payments",
        description:
          'The open balance of unpaid invoices, the standing the renter sees in the portal, the credit on the account no invoice has taken yet, and every payment, newest first.',
        params: IdParams,
        response: { 200: json('The account', CustomerAccount) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await getCustomer(deps.pool, id))) throw new NotFoundError('Customer not found');
      const [account, payments] = await Promise.all([getPortalAccount(deps.pool, deps.store, id, deps.clock.now()), paymentsOfCustomer(deps.pool, id)]);
      return { openBalance: account.openBalance, standing: account.status, credit: account.credit, payments };
    },
  );

  app.get(
    '/api/customers/:id/notes',
    {
      schema: {
        summary: "A customer's notes",
        description: 'Newest first, each with who wrote it.',
        params: IdParams,
        response: { 200: json('The notes', z.array(CustomerNote)) },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await getCustomer(deps.pool, id))) throw new NotFoundError('Customer not found');
      return notesOfCustomer(deps.pool, id);
    },
  );

  app.post(
    '/api/customers/:id/notes',
    {
      config: { roles: ['owner', 'manager', 'clerk'] },
      schema: {
        summary: 'Add a note to a customer',
        params: IdParams,
        body: AddCustomerNoteRequest,
        response: { 201: json("The customer's notes, the new one first", z.array(CustomerNote)) },
      },
    },
    async (request, reply) => {
      const result = await addCustomerNote(commandContext(deps, request), request.params.id, request.body.text);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await notesOfCustomer(deps.pool, request.params.id));
    },
  );

  app.post(
    '/api/customers',
    { schema: { summary: 'Add a customer', body: CreateCustomerRequest, response: { 201: json('The new customer', Customer) } } },
    async (request, reply) => {
      const result = await addCustomer(commandContext(deps, request), request.body);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status === 'none') throw new Error('A created customer has no state');
      const created = (await getCustomer(deps.pool, result.state.customerId)) ?? fallbackCustomer(result.state.customerId, result.state.fields);
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/customers/:id',
    {
      schema: {
        summary: "Change a customer's contact details",
        description:
          'Changes the contact details given (at least one). The standing and the facility are not details: a request that sends them is refused (400).',
        params: IdParams,
        body: UpdateCustomerRequest,
        response: { 200: json('The customer as changed', Customer) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await updateCustomer(commandContext(deps, request), id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status === 'none') throw new NotFoundError('Customer not found');
      return (await getCustomer(deps.pool, id)) ?? fallbackCustomer(id, result.state.fields);
    },
  );

  app.post(
    '/api/customers/:id/standing',
    {
      // Whoever changes customers (edits, archives): the edit form set the standing before it became a decision of its own.
      config: { roles: ['owner', 'manager', 'clerk'] },
      schema: {
        summary: "Change a customer's standing",
        description:
          "Marks the customer inactive or terminated, or active again, with the reason (customer_standing_changed). Overdue is never set by hand: it follows the invoices, and active is refused (409, nothing written) while one of the customer's invoices is overdue. The standing the customer has already changes nothing.",
        params: IdParams,
        body: ChangeCustomerStandingRequest,
        response: { 200: json('The customer as changed', Customer) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { status, reason } = request.body;
      const result = await changeCustomerStanding(commandContext(deps, request), id, status, reason);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status === 'none') throw new NotFoundError('Customer not found');
      return (await getCustomer(deps.pool, id)) ?? fallbackCustomer(id, result.state.fields);
    },
  );

  app.delete(
    '/api/customers/:id',
    {
      schema: {
        summary: 'Archive a customer',
        description:
          'The customer leaves the lists; their history is kept and their email is free for a new account. Refused (409) while they have an active lease or an open balance.',
        params: IdParams,
        response: { 204: empty('Archived') },
      },
    },
    async (request, reply) => {
      const result = await archiveCustomer(commandContext(deps, request), request.params.id);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/customers/:id/restore',
    {
      schema: {
        summary: 'Restore an archived customer',
        description: 'The customer is back in the lists with the email they had; refused (409) while another customer holds that email.',
        params: IdParams,
        response: { 200: json('The customer as restored', Customer) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await restoreCustomer(commandContext(deps, request), id);
      if (result.position) await deps.afterAppend(result.position);
      if (result.state.status === 'none') throw new NotFoundError('Customer not found');
      return (await getCustomer(deps.pool, id)) ?? fallbackCustomer(id, result.state.fields);
    },
  );
}

/** When the read model is still behind after the bounded wait, answer from the write side. */
function fallbackCustomer(id: string, fields: CustomerFields) {
  const now = new Date().toISOString();
  return { id, ...fields, createdAt: now, updatedAt: now };
}
