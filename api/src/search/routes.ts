import { ListCustomersQuery } from '@storage/contracts/customers';
import { ListInvoicesQuery } from '@storage/contracts/invoices';
import { SEARCH_LIMIT, SearchQuery, SearchResults } from '@storage/contracts/search';
import { ListUnitsQuery } from '@storage/contracts/units';
import type { FastifyInstance } from 'fastify';
import { listCustomers } from '../customers/queries.ts';
import type { AppDeps } from '../deps.ts';
import { json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { listInvoices } from '../invoices/queries.ts';
import { listUnits } from '../units/queries.ts';

/**
 * The console's global search: the first few customers, units and invoices matching what was typed,
 * through the lists' own queries, so it finds exactly what each list's search box would.
 */
export async function searchRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Search', access: 'staff' });

  app.get(
    '/api/search',
    {
      schema: {
        summary: 'Search',
        description: `The first ${SEARCH_LIMIT} customers (by name, email or phone), units (by number) and invoices (by number) that match, as each list's search would find them.`,
        querystring: SearchQuery,
        response: { 200: json('What matches, by kind', SearchResults) },
      },
    },
    async (request): Promise<SearchResults> => {
      const { q, facilityId } = request.query;
      const page = { search: q, facilityId, page: 1, pageSize: SEARCH_LIMIT };
      const [customers, units, invoices] = await Promise.all([
        listCustomers(deps.pool, ListCustomersQuery.parse(page)),
        listUnits(deps.pool, ListUnitsQuery.parse(page)),
        listInvoices(deps.pool, ListInvoicesQuery.parse(page)),
      ]);
      return {
        customers: customers.customers.map((c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}`, email: c.email, phone: c.phone, status: c.status })),
        units: units.units.map((u) => ({ id: u.id, unitNumber: u.unitNumber, building: u.building, status: u.status })),
        invoices: invoices.invoices.map((i) => ({
          id: i.id,
          invoiceNumber: i.invoiceNumber,
          customerName: `${i.customer.firstName} ${i.customer.lastName}`,
          amount: i.amount,
          status: i.status,
        })),
      };
    },
  );
}
