import { Ledger, LedgerQuery } from '@storage/contracts/ledger';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { attachment } from '../http/csv.ts';
import { IdParams } from '../http/params.ts';
import { file, json } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { getSettings } from '../settings/queries.ts';
import { customerLedger } from './queries.ts';
import { statementFileName, statementPdf } from './statement.ts';

// A customer's ledger and statement for staff (every role, auditors too: they only read). The
// renter's own are in the portal's routes.

export async function ledgerRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Customers', access: 'staff' });

  async function ledgerOf(customerId: string, query: LedgerQuery) {
    const ledger = await customerLedger(deps.pool, customerId, query, deps.clock.now());
    if (!ledger) throw new NotFoundError('Customer not found');
    return ledger;
  }

  app.get(
    '/api/customers/:id/ledger',
    {
      schema: {
        summary: "A customer's ledger",
        description:
          'Charges, late fees, payments, credits, refunds, write-offs and voids, in the order recorded, each with the running balance, up to `asOf` (default: today in the customer’s facility). With `from`, earlier entries make the opening balance.',
        params: IdParams,
        querystring: LedgerQuery,
        response: { 200: json('The ledger', Ledger) },
      },
    },
    async (request) => ledgerOf(request.params.id, request.query),
  );

  app.get(
    '/api/customers/:id/statement.pdf',
    {
      schema: {
        summary: "A customer's statement as PDF",
        description: 'The ledger as a statement the renter could be handed: the business, the renter, the entries with the running balance, the balance due.',
        params: IdParams,
        querystring: LedgerQuery,
        response: { 200: file('The statement, as a PDF to download', 'application/pdf') },
      },
    },
    async (request, reply) => {
      const ledger = await ledgerOf(request.params.id, request.query);
      const { businessProfile } = await getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(statementFileName(ledger)))
        .send(await statementPdf(ledger, businessProfile));
    },
  );
}
