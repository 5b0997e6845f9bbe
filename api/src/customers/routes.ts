import { CreateCustomerRequest, ListCustomersQuery, TOTAL_COUNT_HEADER, UpdateCustomerRequest } from '@storage/contracts/customers';
import { Id } from '@storage/contracts/fields';
import { NotFoundError } from '@storage/domain/commands/errors';
import { addCustomer, archiveCustomer, updateCustomer } from '@storage/domain/customers/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { parseInput } from '../http/validate.ts';
import { getCustomer, listCustomers } from './queries.ts';

const CustomerParams = z.strictObject({ id: Id });

export async function customerRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);

  app.get('/api/customers', async (request, reply) => {
    const query = parseInput(ListCustomersQuery, request.query, 'query');
    const { customers, total } = await listCustomers(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(customers);
  });

  app.get('/api/customers/:id', async (request) => {
    const { id } = parseInput(CustomerParams, request.params, 'params');
    const customer = await getCustomer(deps.pool, id);
    if (!customer) throw new NotFoundError('Customer not found');
    return customer;
  });

  app.post('/api/customers', async (request, reply) => {
    const fields = parseInput(CreateCustomerRequest, request.body);
    const result = await addCustomer(commandContext(deps, request), fields);
    if (result.position) await deps.afterAppend(result.position);
    if (result.state.status === 'none') throw new Error('A created customer has no state');
    const created = (await getCustomer(deps.pool, result.state.customerId)) ?? fallbackCustomer(result.state.customerId, result.state.fields);
    return reply.status(201).send(created);
  });

  app.patch('/api/customers/:id', async (request) => {
    const { id } = parseInput(CustomerParams, request.params, 'params');
    const changes = parseInput(UpdateCustomerRequest, request.body);
    const result = await updateCustomer(commandContext(deps, request), id, changes);
    if (result.position) await deps.afterAppend(result.position);
    return (await getCustomer(deps.pool, id)) ?? (result.state.status === 'none' ? null : fallbackCustomer(id, result.state.fields));
  });

  app.delete('/api/customers/:id', async (request, reply) => {
    const { id } = parseInput(CustomerParams, request.params, 'params');
    const result = await archiveCustomer(commandContext(deps, request), id);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(204).send();
  });
}

/** When the read model is still behind after the bounded wait, answer from the write side. */
function fallbackCustomer(id: string, fields: z.output<typeof CreateCustomerRequest>) {
  const now = new Date().toISOString();
  return { id, ...fields, createdAt: now, updatedAt: now };
}
