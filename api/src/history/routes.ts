import { TOTAL_COUNT_HEADER } from '@storage/contracts/customers';
import { type AuditEvent, AuditEventsFilter, HistoryParams, HistoryQuery, ListAuditEventsQuery } from '@storage/contracts/history';
import { NotFoundError } from '@storage/domain/commands/errors';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { attachment, type CsvValue, csvDownload } from '../http/csv.ts';
import { requireRole } from '../http/roles.ts';
import { parseInput } from '../http/validate.ts';
import { auditEventsMatching, entityHistory, listAuditEvents } from './queries.ts';

const exportColumns: ReadonlyArray<{ header: string; value: (event: AuditEvent) => CsvValue }> = [
  { header: 'Occurred At', value: (e) => e.occurredAt },
  { header: 'Recorded At', value: (e) => e.recordedAt },
  { header: 'Event', value: (e) => e.description },
  { header: 'Type', value: (e) => e.type },
  { header: 'Actor', value: (e) => e.actor },
  { header: 'Stream', value: (e) => e.streamName },
  { header: 'Event ID', value: (e) => e.id },
  { header: 'Data', value: (e) => JSON.stringify(e.data) },
];

export async function historyRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('preHandler', app.requireStaff);
  const historyReaders = { preHandler: requireRole('owner', 'auditor') };

  app.get('/api/history/:streamType/:id', historyReaders, async (request) => {
    const { streamType, id } = parseInput(HistoryParams, request.params, 'params');
    const { asOf } = parseInput(HistoryQuery, request.query, 'query');
    const history = await entityHistory(deps, streamType, id, asOf ? new Date(asOf) : null);
    if (!history) throw new NotFoundError('No history for this entity');
    return history;
  });

  app.get('/api/audit/events', historyReaders, async (request, reply) => {
    const { page, pageSize, ...filter } = parseInput(ListAuditEventsQuery, request.query, 'query');
    const { events, total } = await listAuditEvents(deps, filter, { page, pageSize });
    return reply.header(TOTAL_COUNT_HEADER, String(total)).send(events);
  });

  app.get('/api/audit/events.csv', historyReaders, async (request, reply) => {
    const filter = parseInput(AuditEventsFilter, request.query, 'query');
    const rows = await csvDownload(exportColumns, auditEventsMatching(deps, filter), request.log);
    const today = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment(`events-${today}.csv`))
      .send(rows);
  });
}
