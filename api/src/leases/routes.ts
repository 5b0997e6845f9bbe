import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { streams } from '@storage/contracts/events';
import { Id } from '@storage/contracts/fields';
import { EndLeaseRequest, type Lease, LeaseCountsQuery, LeaseDocumentQuery, LeasesFilter, ListLeasesQuery, StartLeaseRequest } from '@storage/contracts/leases';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import { NotFoundError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { endLease, startLease } from '@storage/domain/leases/commands';
import type { LeaseState } from '@storage/domain/leases/lease';
import { unitAggregate } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { getFacility } from '../facilities/queries.ts';
import { commandContext } from '../http/command-context.ts';
import { attachment, type CsvValue, csvDownload } from '../http/csv.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { getSettings } from '../settings/queries.ts';
import { leaseDocument, leaseDocumentPdf } from './document.ts';
import { countLeases, getLease, leasesMatching, listLeases } from './queries.ts';

const LeaseParams = z.strictObject({ id: Id });

const exportColumns: ReadonlyArray<{ header: string; value: (lease: Lease) => CsvValue }> = [
  { header: 'Lease ID', value: (l) => l.id },
  { header: 'First Name', value: (l) => l.customer.firstName },
  { header: 'Last Name', value: (l) => l.customer.lastName },
  { header: 'Email', value: (l) => l.customer.email },
  { header: 'Phone', value: (l) => l.customer.phone },
  { header: 'Unit Number', value: (l) => l.unit.unitNumber },
  { header: 'Size', value: (l) => l.unit.size },
  { header: 'Building', value: (l) => l.unit.building },
  { header: 'Status', value: (l) => (l.isActive ? 'Active' : 'Inactive') },
  { header: 'Monthly Rate', value: (l) => l.monthlyRate },
  { header: 'Deposit', value: (l) => l.depositAmount },
  { header: 'Start Date', value: (l) => l.startDate },
  { header: 'End Date', value: (l) => l.endDate },
  { header: 'Paid Invoices', value: (l) => l.invoiceSummary.paid },
  { header: 'Overdue Invoices', value: (l) => l.invoiceSummary.overdue },
  { header: 'Total Invoices', value: (l) => l.invoiceSummary.total },
  { header: 'Created At', value: (l) => l.createdAt },
];

export async function leaseRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  // Auditors read; the others move tenants in and out.
  const leasing = { preHandler: requireRole('owner', 'manager', 'clerk') };

  /** The lease as the read model shows it, or (when it is still behind after the bounded wait) as the write side knows it. */
  async function leaseAsShown(state: LeaseState): Promise<Lease> {
    if (state.status === 'none' || state.status === 'abandoned') throw new Error('A written lease has no state');
    const endDate = state.status === 'ended' ? state.endDate : null;
    const shown = await getLease(deps.pool, state.leaseId);
    if (shown) return { ...shown, isActive: state.status === 'active', endDate };
    const { terms } = state;
    const [{ state: customer }, { state: unit }] = await Promise.all([
      loadAggregate(deps.store, streams.customer(terms.customerId), customerAggregate),
      loadAggregate(deps.store, streams.unit(terms.unitId), unitAggregate),
    ]);
    if (customer.status === 'none' || unit.status === 'none') throw new Error('A lease names a customer or unit that does not exist');
    const { firstName, lastName, email, phone } = customer.fields;
    const { unitNumber, size, building, facilityId } = unit.fields;
    return {
      id: state.leaseId,
      customer: { id: terms.customerId, firstName, lastName, email, phone },
      unit: { id: terms.unitId, unitNumber, size, building, facilityId },
      isActive: state.status === 'active',
      monthlyRate: terms.monthlyRate,
      depositAmount: terms.depositAmount,
      startDate: terms.startDate,
      endDate,
      createdAt: new Date().toISOString(),
      invoiceSummary: { paid: 0, overdue: 0, total: 0 },
    };
  }

  async function documentOf(leaseId: string, timeZone: string) {
    const lease = await getLease(deps.pool, leaseId);
    if (!lease) throw new NotFoundError('Lease not found');
    const [facility, settings] = await Promise.all([
      lease.unit.facilityId ? getFacility(deps.pool, lease.unit.facilityId) : null,
      getSettings(deps.pool, BUSINESS_SETTINGS_SCOPE, undefined),
    ]);
    return { lease, document: leaseDocument({ lease, facility, lateFee: settings.payments.lateFeeAmount }, new Date(), timeZone) };
  }

  app.get('/api/leases', async (request, reply) => {
    const query = parseInput(ListLeasesQuery, request.query, 'query');
    const { leases, total } = await listLeases(deps.pool, query);
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(leases);
  });

  app.get('/api/leases/counts', async (request) => {
    const filter = parseInput(LeaseCountsQuery, request.query, 'query');
    return countLeases(deps.pool, filter);
  });

  app.get('/api/leases/export.csv', async (request, reply) => {
    const filter = parseInput(LeasesFilter, request.query, 'query');
    const rows = await csvDownload(exportColumns, leasesMatching(deps.pool, filter), request.log);
    const today = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(`leases-${today}.csv`))
      .send(rows);
  });

  app.post('/api/leases', leasing, async (request, reply) => {
    const terms = parseInput(StartLeaseRequest, request.body);
    const result = await startLease(commandContext(deps, request), terms);
    if (result.position) await deps.afterAppend(result.position);
    return reply.status(201).send(await leaseAsShown(result.state));
  });

  app.post('/api/leases/:id/end', leasing, async (request) => {
    const { id } = parseInput(LeaseParams, request.params, 'params');
    const { endDate } = parseInput(EndLeaseRequest, request.body);
    const result = await endLease(commandContext(deps, request), id, endDate);
    if (result.position) await deps.afterAppend(result.position);
    return leaseAsShown(result.state);
  });

  app.get('/api/leases/:id/document', async (request) => {
    const { id } = parseInput(LeaseParams, request.params, 'params');
    const { timeZone } = parseInput(LeaseDocumentQuery, request.query, 'query');
    return (await documentOf(id, timeZone)).document;
  });

  app.get('/api/leases/:id/document.pdf', async (request, reply) => {
    const { id } = parseInput(LeaseParams, request.params, 'params');
    const { timeZone } = parseInput(LeaseDocumentQuery, request.query, 'query');
    const { lease, document } = await documentOf(id, timeZone);
    return reply
      .type('application/pdf')
      .header('content-disposition', attachment(`lease-${lease.unit.unitNumber}-${lease.customer.lastName}.pdf`))
      .send(leaseDocumentPdf(document));
  });
}
