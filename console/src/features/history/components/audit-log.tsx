import { DownloadOutlined } from '@ant-design/icons';
import { type EventType, eventTypes } from '@storage/contracts/events';
import { IsoDate } from '@storage/contracts/fields';
import { type AuditEvent, auditSorting } from '@storage/contracts/history';
import { Button, Card, Flex, Input, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { z } from 'zod';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { type AuditLogFilter, auditFilterParams, useAuditEvents } from '../api/get-audit-events.ts';

const PAGE_SIZE = 25;

const typeOptions = eventTypes.map((type) => ({ value: type, label: type.replaceAll('_', ' ') }));

const when = (at: string) => `${formatDate(at)}, ${formatTime12h(at)}`;

const Text = z.string().max(200);
const filterSchemas = { type: z.enum(eventTypes as [EventType, ...EventType[]]), actor: Text, stream: Text, from: IsoDate, to: IsoDate };

const column = dataTableColumns<AuditEvent>();
const columns = column.columns([
  column.accessor('occurredAt', { header: 'Occurred', cell: (info) => when(info.getValue()) }),
  column.accessor('recordedAt', { header: 'Recorded', cell: (info) => when(info.getValue()) }),
  column.accessor('description', { header: 'Event' }),
  column.accessor('actor', { header: 'Actor' }),
  column.accessor('streamName', {
    header: 'Entity',
    // Its name when it has one (the stream, which the Entity filter takes, on hover); else the stream.
    cell: (info) =>
      info.row.original.entity ? <span title={info.getValue()}>{info.row.original.entity}</span> : <Typography.Text code>{info.getValue()}</Typography.Text>,
  }),
]);

/** Every event of the store, newest first unless sorted otherwise, filtered and paged on the server; the same filter exports as CSV. */
export function AuditLog() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: auditSorting, filters: filterSchemas, scope: facilityId });
  const { type, actor, stream, from, to } = list.filters;
  const filter: AuditLogFilter = useMemo(
    () => ({ type, actor: actor ?? '', stream: stream ?? '', from: from ?? '', to: to ?? '', facilityId }),
    [type, actor, stream, from, to, facilityId],
  );
  const events = useAuditEvents(filter, list.sort, list.at, PAGE_SIZE);

  return (
    <Card styles={{ body: { padding: 0 } }}>
      <Flex wrap gap={8} className="data-table-toolbar">
        <Select
          allowClear
          showSearch
          placeholder="Event type"
          aria-label="Event type"
          style={{ width: 220 }}
          options={typeOptions}
          value={type}
          onChange={(next) => list.setFilter('type', next ?? null)}
        />
        {/* Remade when the URL changes (Back), so the box shows the filter in force. */}
        <Input.Search
          key={`actor-${actor}`}
          defaultValue={actor ?? ''}
          placeholder="Actor"
          aria-label="Actor"
          allowClear
          style={{ width: 180 }}
          onSearch={(text) => list.setFilter('actor', text.trim() || null)}
        />
        <Input.Search
          key={`stream-${stream}`}
          defaultValue={stream ?? ''}
          placeholder="Entity (e.g. customer-<id>)"
          aria-label="Entity"
          allowClear
          style={{ width: 260 }}
          onSearch={(text) => list.setFilter('stream', text.trim() || null)}
        />
        <Input type="date" aria-label="From" value={from ?? ''} onChange={(e) => list.setFilter('from', e.target.value || null)} style={{ width: 160 }} />
        <Input type="date" aria-label="To" value={to ?? ''} onChange={(e) => list.setFilter('to', e.target.value || null)} style={{ width: 160 }} />
        <Button icon={<DownloadOutlined />} href={`/api/audit/events.csv?${auditFilterParams(filter)}`} download>
          Export CSV
        </Button>
      </Flex>
      <DataTable
        label="Audit log events"
        className="audit-table"
        columns={columns}
        rows={events.data?.events}
        getRowId={(event) => event.id}
        list={list}
        pageSize={PAGE_SIZE}
        total={events.data?.total}
        failure={events.isError ? { title: 'Could not load the events', error: events.error } : null}
        dimmed={events.isPlaceholderData}
        empty="No events found"
        rowTestId="audit-row"
      />
    </Card>
  );
}
