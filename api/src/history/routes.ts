import { AuditEvent, AuditEventsFilter, EntityHistory, HistoryParams, HistoryQuery, ListAuditEventsQuery } from '@storage/contracts/history';
import { pageHeaders } from '@storage/contracts/paging';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { attachment, type CsvValue, csvDownload } from '../http/csv.ts';
import { file, json, page } from '../http/responses.ts';
import { routeGroup } from '../http/route-group.ts';
import { auditEventsMatching, entityHistory, listAuditEvents } from './queries.ts';

const exportColumns: ReadonlyArray<{ header: string; value: (event: AuditEvent) => CsvValue }> = [
  { header: 'Occurred At', value: (e) => e.occurredAt },
  { header: 'Recorded At', value: (e) => e.recordedAt },
  { header: 'Event', value: (e) => e.description },
  { header: 'Type', value: (e) => e.type },
  { header: 'Actor', value: (e) => e.actor },
  { header: 'Stream', value: (e) => e.streamName },
  { header: 'Entity', value: (e) => e.entity },
  { header: 'Event ID', value: (e) => e.id },
  { header: 'Correlation ID', value: (e) => e.correlationId },
  { header: 'Causation ID', value: (e) => e.causationId },
  { header: 'Data', value: (e) => JSON.stringify(e.data) },
];

export async function historyRoutes(plugin: FastifyInstance, deps: AppDeps) {
  const app = routeGroup(plugin, { tag: 'History', access: 'staff', roles: ['owner', 'auditor'] });

  app.get(
    '/api/history/:streamType/:id',
    {
      schema: {
        summary: "An entity's history",
        description: 'Its events, oldest first, with the fields each one changed; with `asOf`, the entity as its events made it at that instant.',
        params: HistoryParams,
        querystring: HistoryQuery,
        response: { 200: json('The history', EntityHistory) },
      },
    },
    async (request) => {
      const { streamType, id } = request.params;
      const { asOf } = request.query;
      const history = await entityHistory(deps, streamType, id, asOf ? new Date(asOf) : null);
      if (!history) throw new NotFoundError('No history for this entity');
      return history;
    },
  );

  app.get(
    '/api/audit/events',
    {
      schema: {
        summary: 'The event log',
        description:
          'Every event, newest first; deep pages by `cursor` (x-next-cursor, x-prev-cursor), jumps near a page by `cursor` and `skip`. `customerId`, `unitId` or `invoiceId` keeps the events of that entity (a customer: with their leases, reservations and invoices), `correlationId` those of one request.',
        querystring: ListAuditEventsQuery,
        response: { 200: page('A page of events', AuditEvent) },
      },
    },
    async (request, reply) => {
      const { page, pageSize, cursor, skip, ...filter } = request.query;
      const { events, info } = await listAuditEvents(deps.pool, filter, { page, pageSize, cursor, skip });
      return reply.headers(pageHeaders(info)).send(events);
    },
  );

  app.get(
    '/api/audit/events.csv',
    { schema: { summary: 'Export the event log', querystring: AuditEventsFilter, response: { 200: file('The events that match, as CSV', 'text/csv') } } },
    async (request, reply) => {
      const rows = await csvDownload(exportColumns, auditEventsMatching(deps.pool, request.query), request.log);
      const today = deps.clock.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`events-${today}.csv`))
        .send(rows);
    },
  );
}
