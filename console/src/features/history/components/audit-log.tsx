import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { type EventType, eventTypes } from '@storage/contracts/events';
import { Id, IsoDate } from '@storage/contracts/fields';
import { type AuditEvent, auditSorting } from '@storage/contracts/history';
import { Button, Card, Flex, Input, Select, Typography } from 'antd';
import { type ComponentType, useMemo, useState } from 'react';
import { z } from 'zod';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { type AuditLogFilter, auditFilterParams, useAuditEvents } from '../api/get-audit-events.ts';
import { AuditEventDetails } from './audit-event-details.tsx';

const PAGE_SIZE = 25;

const typeOptions = eventTypes.map((type) => ({ value: type, label: type.replaceAll('_', ' ') }));

const when = (at: string) => `${formatDate(at)}, ${formatTime12h(at)}`;

const Text = z.string().max(200);
const filterSchemas = {
  type: z.enum(eventTypes as [EventType, ...EventType[]]),
  actor: Text,
  customerId: Id,
  unitId: Id,
  invoiceId: Id,
  // A stream by its name: addresses from before the picker, kept working.
  stream: Text,
  correlationId: Id,
  from: IsoDate,
  to: IsoDate,
};

/** A customer, a unit or an invoice the log is filtered to. */
export type AuditEntity = { kind: 'customer' | 'unit' | 'invoice'; id: string };

/** What the log needs of a picker of entities; the screen plugs in the search's. */
export type AuditEntityPickerProps = { value: AuditEntity | null; onChange: (entity: AuditEntity | null) => void; 'aria-label'?: string };

const noEntity = { customerId: null, unitId: null, invoiceId: null, stream: null } as const;

const column = dataTableColumns<AuditEvent>();
const columns = column.columns([
  column.accessor('occurredAt', { header: 'Occurred', cell: (info) => when(info.getValue()) }),
  column.accessor('recordedAt', { header: 'Recorded', cell: (info) => when(info.getValue()) }),
  column.accessor('description', { header: 'Event' }),
  column.accessor('actor', { header: 'Actor' }),
  column.accessor('streamName', {
    header: 'Entity',
    // What the stream stands for; the stream itself on hover, and in the event's details.
    cell: (info) => <span title={info.getValue()}>{info.row.original.entity}</span>,
  }),
]);

/** The Correlation ID box: a request's id pasted or typed (a UUID), the filter of "Show this request's events". */
function CorrelationFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const [invalid, setInvalid] = useState(false);
  return (
    <Flex vertical>
      {/* Remade when the URL changes (Back, a request shown from an event), so the box shows the filter in force. */}
      <Input.Search
        key={`correlation-${value}`}
        defaultValue={value ?? ''}
        placeholder="Correlation ID"
        aria-label="Correlation ID"
        aria-invalid={invalid}
        aria-describedby={invalid ? 'audit-correlation-error' : undefined}
        status={invalid ? 'error' : undefined}
        allowClear
        style={{ width: 320 }}
        onSearch={(text) => {
          const id = text.trim();
          const valid = id === '' || Id.safeParse(id).success;
          setInvalid(!valid);
          if (valid) onChange(id || null);
        }}
      />
      {invalid && (
        <Typography.Text id="audit-correlation-error" type="danger" style={{ fontSize: 12 }}>
          A correlation ID is a UUID, e.g. 0b7d5f3e-1111-4222-8333-444455556666
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * Every event of the store, newest first unless sorted otherwise, filtered and paged on the server;
 * the same filter exports as CSV. A row opens the event in full, whence its request's events.
 */
export function AuditLog({ entityPicker: EntityPicker }: { entityPicker: ComponentType<AuditEntityPickerProps> }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: auditSorting, filters: filterSchemas, scope: facilityId });
  const { type, actor, customerId, unitId, invoiceId, stream, correlationId, from, to } = list.filters;
  const filter: AuditLogFilter = useMemo(
    () => ({ type, actor: actor ?? '', facilityId, customerId, unitId, invoiceId, stream: stream ?? '', correlationId, from: from ?? '', to: to ?? '' }),
    [type, actor, facilityId, customerId, unitId, invoiceId, stream, correlationId, from, to],
  );
  const events = useAuditEvents(filter, list.sort, list.at, PAGE_SIZE);
  const [opened, setOpened] = useState<AuditEvent | null>(null);

  const entity: AuditEntity | null = customerId
    ? { kind: 'customer', id: customerId }
    : unitId
      ? { kind: 'unit', id: unitId }
      : invoiceId
        ? { kind: 'invoice', id: invoiceId }
        : null;
  const pickEntity = (picked: AuditEntity | null) =>
    list.setFilters({
      ...noEntity,
      customerId: picked?.kind === 'customer' ? picked.id : null,
      unitId: picked?.kind === 'unit' ? picked.id : null,
      invoiceId: picked?.kind === 'invoice' ? picked.id : null,
    });
  // A request's events wherever they are: the other filters would hide some of them.
  const showRequest = (id: string) => {
    setOpened(null);
    list.setFilters({ ...noEntity, type: null, actor: null, from: null, to: null, correlationId: id });
  };

  return (
    <Card styles={{ body: { padding: 0 } }}>
      <Flex wrap gap={8} align="start" className="data-table-toolbar">
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
        <EntityPicker aria-label="Entity" value={entity} onChange={pickEntity} />
        {stream && (
          <Flex align="center" gap={4} style={{ alignSelf: 'center' }}>
            <Typography.Text type="secondary">Stream</Typography.Text>
            <Typography.Text code>{stream}</Typography.Text>
            <Button type="text" size="small" icon={<CloseOutlined />} aria-label="Remove the stream filter" onClick={() => list.setFilter('stream', null)} />
          </Flex>
        )}
        <CorrelationFilter value={correlationId} onChange={(id) => list.setFilter('correlationId', id)} />
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
        onOpenRow={setOpened}
      />
      <AuditEventDetails event={opened} onClose={() => setOpened(null)} onShowRequest={showRequest} />
    </Card>
  );
}
