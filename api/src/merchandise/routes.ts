import {
  AddMerchandiseRequest,
  AdjustMerchandiseStockRequest,
  ChangeMerchandiseRequest,
  MerchandiseItem,
  MerchandiseQuote,
  MerchandiseQuoteQuery,
  MerchandiseSale,
  MerchandiseSaleRequest,
  RestockMerchandiseRequest,
} from '@storage/contracts/merchandise';
import { derivedId } from '@storage/domain/commands/derived-id';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { CommandResult } from '@storage/domain/commands/handle';
import {
  addMerchandiseItem,
  changeMerchandiseItem,
  countMerchandiseStock,
  restockMerchandiseItem,
  sellMerchandiseAtDesk,
} from '@storage/domain/merchandise/commands';
import type { MerchandiseState } from '@storage/domain/merchandise/item';
import { quoteMerchandise } from '@storage/domain/merchandise/quote';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { IdParams } from '../http/params.ts';
import { errorAnswer, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listMerchandise } from './queries.ts';

// What a facility sells at the desk: its catalogue (owners and managers keep it, every staff
// member sees it) and a desk sale to a renter, which issues the sale's invoice.

/** The item as its stream left it: the answer of a change, whatever the read model has caught up with. */
function itemOf(state: MerchandiseState): MerchandiseItem {
  if (state.status === 'none') throw new NotFoundError('Item not found');
  const { itemId, facilityId, name, price, taxable, stock, active } = state;
  return { id: itemId, facilityId, name, price, taxable, stock, active };
}

export async function merchandiseRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Merchandise', access: 'staff' });
  const keepCatalogue = { roles: ['owner', 'manager'] } as const;
  const sell = { roles: ['owner', 'manager', 'clerk'] } as const;

  async function changed(result: CommandResult<MerchandiseState>) {
    if (result.position) await deps.afterAppend(result.position);
    return itemOf(result.state);
  }

  app.get(
    '/api/facilities/:id/merchandise',
    {
      schema: {
        summary: "List a facility's merchandise",
        description: 'Every item the facility sells or sold (retired ones after), with its price, whether it is taxed, and its stock (null: not counted).',
        params: IdParams,
        response: { 200: json('The items', z.array(MerchandiseItem)) },
      },
    },
    async (request) => listMerchandise(deps.pool, request.params.id),
  );

  app.get(
    '/api/facilities/:id/merchandise-quote',
    {
      config: sell,
      schema: {
        summary: 'Quote a desk sale',
        description:
          "What selling these items at the facility would bill were it done now: the invoice's lines (each item, and its sales tax at the facility's merchandise rate when taxed) and their total, worked out as the sale works them out. Nothing is recorded; stock is checked by the sale.",
        params: IdParams,
        querystring: MerchandiseQuoteQuery,
        response: { 200: json('The lines and the total', MerchandiseQuote) },
      },
    },
    async (request) => quoteMerchandise(deps.store, request.params.id, request.query.lines),
  );

  app.post(
    '/api/facilities/:id/merchandise',
    {
      config: keepCatalogue,
      schema: {
        summary: 'Add an item to sell',
        description: 'A lock, a box, a service fee: its name, price, whether sales tax applies, and the stock on hand (null for an item with no stock).',
        params: IdParams,
        body: AddMerchandiseRequest,
        response: { 201: json('The new item', MerchandiseItem), 404: errorAnswer('No such facility') },
      },
    },
    async (request, reply) => {
      const { stock, ...details } = request.body;
      const key = request.idempotency?.key;
      const itemId = key ? derivedId('merchandise-item', request.params.id, key) : undefined;
      const result = await addMerchandiseItem(commandContext(deps, request), request.params.id, details, stock, itemId);
      return reply.status(201).send(await changed(result));
    },
  );

  app.put(
    '/api/merchandise/:id',
    {
      config: keepCatalogue,
      schema: {
        summary: 'Change an item',
        description:
          'Its name, price, whether sales tax applies, and whether it is still sold (active false: retired). Sales already made keep the price they were made at.',
        params: IdParams,
        body: ChangeMerchandiseRequest,
        response: { 200: json('The item as changed', MerchandiseItem), 404: errorAnswer('No such item') },
      },
    },
    async (request) => {
      const { active, ...details } = request.body;
      return changed(await changeMerchandiseItem(commandContext(deps, request), request.params.id, details, active));
    },
  );

  app.post(
    '/api/merchandise/:id/restock',
    {
      config: keepCatalogue,
      schema: {
        summary: 'Restock an item',
        description: 'Adds what was delivered to the stock on hand.',
        params: IdParams,
        body: RestockMerchandiseRequest,
        response: { 200: json('The item restocked', MerchandiseItem), 404: errorAnswer('No such item'), 409: errorAnswer('The item has no stock to count') },
      },
    },
    async (request) => changed(await restockMerchandiseItem(commandContext(deps, request), request.params.id, request.body.quantity)),
  );

  app.post(
    '/api/merchandise/:id/stock-count',
    {
      config: keepCatalogue,
      schema: {
        summary: "Correct an item's stock",
        description: 'The stock as counted on the shelf, with why it differs (damaged, lost, miscounted).',
        params: IdParams,
        body: AdjustMerchandiseStockRequest,
        response: { 200: json('The item counted', MerchandiseItem), 404: errorAnswer('No such item'), 409: errorAnswer('The item has no stock to count') },
      },
    },
    async (request) => {
      const { stock, reason } = request.body;
      return changed(await countMerchandiseStock(commandContext(deps, request), request.params.id, stock, reason));
    },
  );

  app.post(
    '/api/customers/:id/merchandise-sales',
    {
      config: sell,
      schema: {
        summary: 'Sell merchandise at the desk',
        description:
          "Items of the renter's facility (or of the facility named) with their quantities: each is taken off its stock, never below 0, and the renter gets one invoice with a line per item and, for a taxed item, its sales tax at the facility's merchandise rate; their account credit pays it first. With an Idempotency-Key, a repeat sells nothing twice and answers the same invoice. When an item has too little left, nothing is sold.",
        params: IdParams,
        body: MerchandiseSaleRequest,
        response: {
          201: json('The sale and its invoice', MerchandiseSale),
          404: errorAnswer('No such customer'),
          409: errorAnswer('An item has too little stock left, or is no longer sold'),
        },
      },
    },
    async (request, reply) => {
      const key = request.idempotency?.key;
      // The sale is named by the request's key, so a retry after a crash finishes the same sale.
      const saleId = key ? derivedId('merchandise-sale', request.params.id, key) : undefined;
      const { facilityId, lines } = request.body;
      const { position, ...sale } = await sellMerchandiseAtDesk(commandContext(deps, request), { customerId: request.params.id, facilityId, lines }, saleId);
      if (position) await deps.afterAppend(position);
      return reply.status(201).send(sale);
    },
  );
}
