import { streams } from '@storage/contracts/events';
import {
  CancelMoveOutRequest,
  EndLeaseRequest,
  Lease,
  LeaseCounts,
  LeaseCountsQuery,
  LeaseDocument,
  LeaseDocumentQuery,
  LeaseMoveOut,
  LeasesFilter,
  ListLeasesQuery,
  StartLeaseRequest,
} from '@storage/contracts/leases';
import { pageHeaders } from '@storage/contracts/paging';
import { ForbiddenError } from '@storage/domain/commands/errors';
import { loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { startLease } from '@storage/domain/leases/commands';
import type { LeaseState } from '@storage/domain/leases/lease';
import { cancelScheduledMoveOut, moveOutCalendar, requestMoveOut } from '@storage/domain/leases/scheduled-move-outs';
import { unitAggregate } from '@storage/domain/units/unit';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { commandContext } from '../http/command-context.ts';
import { attachment, type CsvValue, csvDownload } from '../http/csv.ts';
import { IdParams } from '../http/params.ts';
import { empty, errorAnswer, file, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { leaseDocument, leaseDocumentPdf } from './document.ts';
import { countLeases, getLease, leasesMatching, listLeases } from './queries.ts';
import { leaseSignatureRoutes } from './signature-routes.ts';
import { currentLeaseAgreement } from './signatures.ts';

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

export async function leaseRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'Leases', access: 'staff' });
  // Auditors read; the others move tenants in and out.
  const leasing = { roles: ['owner', 'manager', 'clerk'] } as const;

  /** The lease as the read model shows it, or (when it is still behind after the bounded wait) as the write side knows it. */
  async function leaseAsShown(state: LeaseState): Promise<Lease> {
    if (state.status === 'none' || state.status === 'abandoned') throw new Error('A written lease has no state');
    const endDate = state.status === 'ended' ? state.endDate : null;
    const moveOutDate = state.status === 'active' ? (state.moveOut?.endDate ?? null) : null;
    const shown = await getLease(deps.pool, state.leaseId);
    if (shown) return { ...shown, isActive: state.status === 'active', endDate, moveOutDate };
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
      moveOutDate,
      createdAt: new Date().toISOString(),
      invoiceSummary: { paid: 0, overdue: 0, total: 0 },
    };
  }

  async function documentOf(leaseId: string, timeZone: string) {
    const { lease, facts } = await currentLeaseAgreement(deps, leaseId);
    return { lease, document: leaseDocument(facts, deps.clock.now(), timeZone) };
  }

  app.get(
    '/api/leases',
    { schema: { summary: 'List leases', querystring: ListLeasesQuery, response: { 200: page('A page of leases', Lease) } } },
    async (request, reply) => {
      const { leases, paging } = await listLeases(deps.pool, request.query);
      return reply.headers(pageHeaders(paging)).send(leases);
    },
  );

  app.get(
    '/api/leases/counts',
    {
      schema: {
        summary: 'Count leases by status',
        querystring: LeaseCountsQuery,
        response: { 200: json('How many leases match, all, active and inactive', LeaseCounts) },
      },
    },
    async (request) => countLeases(deps.pool, request.query),
  );

  app.get(
    '/api/leases/export.csv',
    { schema: { summary: 'Export leases', querystring: LeasesFilter, response: { 200: file('The leases that match, as CSV', 'text/csv') } } },
    async (request, reply) => {
      const rows = await csvDownload(exportColumns, leasesMatching(deps.pool, request.query), request.log);
      const today = deps.clock.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`leases-${today}.csv`))
        .send(rows);
    },
  );

  app.post(
    '/api/leases',
    {
      config: leasing,
      schema: {
        summary: 'Start a lease',
        description: 'Moves a customer into a unit.',
        body: StartLeaseRequest,
        response: { 201: json('The new lease', Lease) },
      },
    },
    async (request, reply) => {
      const { protectionPlanId, promotionId, ...agreed } = request.body;
      const result = await startLease(commandContext(deps, request), agreed, undefined, null, { choices: { protectionPlanId, promotionId }, channel: 'desk' });
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(201).send(await leaseAsShown(result.state));
    },
  );

  app.post(
    '/api/leases/:id/end',
    {
      config: leasing,
      schema: {
        summary: 'End a lease',
        description:
          "Moves the customer out on the end date: billing stops after it, what is owed stays owed, the unused days of a period already invoiced are credited when the billing setting says so, and the deposit paid is returned (owners and managers) or applied to the balance as `deposit` says (absent: not touched). An end date after the facility's today (in its time zone) schedules the move-out instead: the lease stays active (`moveOutDate` names the day), billed up to that day, with its unit and gate code, and the facility's day moves the renter out on it, the deposit as chosen now; 409 when another day is scheduled already (cancel it first). An end date of today or earlier moves them out now. Repeating it records nothing twice.",
        params: IdParams,
        body: EndLeaseRequest,
        response: {
          200: json('The lease as ended, or as scheduled to end', Lease),
          404: errorAnswer('No such lease'),
          409: errorAnswer('The lease ended, or moves out on another day'),
        },
      },
    },
    async (request) => {
      // Handing the deposit back is money going back: owners and managers only (anyone who moves renters out may apply it).
      const role = request.staff?.role;
      if (request.body.deposit === 'return' && role !== 'owner' && role !== 'manager') throw new ForbiddenError('Only owners and managers return a deposit');
      const result = await requestMoveOut(commandContext(deps, request), request.params.id, request.body);
      if (result.position) await deps.afterAppend(result.position);
      return leaseAsShown(result.state);
    },
  );

  app.get(
    '/api/leases/:id/move-out',
    {
      schema: {
        summary: "A lease's move-out",
        description:
          "Today in the lease's facility (an end date after it schedules the move-out rather than doing it now) and the move-out scheduled on the lease (null: none), from the lease's stream.",
        params: IdParams,
        response: { 200: json('Today and the scheduled move-out', LeaseMoveOut), 404: errorAnswer('No such lease') },
      },
    },
    async (request) => {
      const { today, scheduled } = await moveOutCalendar(commandContext(deps, request), request.params.id);
      return {
        today,
        scheduled: scheduled && {
          endDate: scheduled.endDate,
          scheduledOn: scheduled.scheduledOn,
          deposit: scheduled.deposit,
          depositMethod: scheduled.depositMethod,
        },
      };
    },
  );

  app.delete(
    '/api/leases/:id/move-out',
    {
      config: leasing,
      schema: {
        summary: 'Cancel a scheduled move-out',
        description:
          "Calls off the lease's scheduled move-out before its day (409 on the day or after, or once the lease ended), with an optional reason: the lease runs on as before. With none scheduled (cancelled already), records nothing.",
        params: IdParams,
        body: CancelMoveOutRequest,
        response: { 204: empty('Cancelled'), 404: errorAnswer('No such lease'), 409: errorAnswer('The move-out is due, or the lease ended') },
      },
    },
    async (request, reply) => {
      const result = await cancelScheduledMoveOut(commandContext(deps, request), request.params.id, request.body.reason);
      if (result.position) await deps.afterAppend(result.position);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/leases/:id/document',
    {
      schema: {
        summary: 'The lease agreement',
        description: "The agreement as one document, for the screen; `timeZone` is the reader's, for the time it was generated.",
        params: IdParams,
        querystring: LeaseDocumentQuery,
        response: { 200: json('The agreement', LeaseDocument) },
      },
    },
    async (request) => (await documentOf(request.params.id, request.query.timeZone)).document,
  );

  app.get(
    '/api/leases/:id/document.pdf',
    {
      schema: {
        summary: 'The lease agreement as PDF',
        params: IdParams,
        querystring: LeaseDocumentQuery,
        response: { 200: file('The agreement, as a PDF to download', 'application/pdf') },
      },
    },
    async (request, reply) => {
      const { lease, document } = await documentOf(request.params.id, request.query.timeZone);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(`lease-${lease.unit.unitNumber}-${lease.customer.lastName}.pdf`))
        .send(await leaseDocumentPdf(document));
    },
  );

  await leaseSignatureRoutes(plugin, deps);
}
