import { DownloadOutlined } from '@ant-design/icons';
import { eventTypes } from '@storage/contracts/events';
import type { AuditEvent } from '@storage/contracts/history';
import { serverMessage } from '@storage/web-client/api';
import { Button, Card, Flex, Input, Result, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { type AuditLogFilter, auditFilterParams, useAuditEvents } from '../api/get-audit-events.ts';

const PAGE_SIZE = 25;

const typeOptions = eventTypes.map((type) => ({ value: type, label: type.replaceAll('_', ' ') }));

const when = (at: string) => `${formatDate(at)}, ${formatTime12h(at)}`;

/** Every event of the store, newest first, filtered and paged on the server; the same filter exports as CSV. */
export function AuditLog() {
  const { selectedFacility } = useFacilityScope();
  const [criteria, setCriteria] = useState<Omit<AuditLogFilter, 'facilityId'>>({ type: null, actor: '', stream: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const filter: AuditLogFilter = { ...criteria, facilityId: selectedFacility?.id ?? null };
  const events = useAuditEvents(filter, page, PAGE_SIZE);
  const refine = (change: Partial<typeof criteria>) => {
    setCriteria((current) => ({ ...current, ...change }));
    setPage(1);
  };

  return (
    <Card>
      <Flex wrap gap={8} style={{ marginBottom: 16 }}>
        <Select
          allowClear
          showSearch
          placeholder="Event type"
          aria-label="Event type"
          style={{ width: 220 }}
          options={typeOptions}
          value={criteria.type}
          onChange={(type) => refine({ type: type ?? null })}
        />
        <Input.Search placeholder="Actor" aria-label="Actor" allowClear style={{ width: 180 }} onSearch={(actor) => refine({ actor: actor.trim() })} />
        <Input.Search
          placeholder="Entity (e.g. customer-<id>)"
          aria-label="Entity"
          allowClear
          style={{ width: 260 }}
          onSearch={(stream) => refine({ stream: stream.trim() })}
        />
        <Input type="date" aria-label="From" value={criteria.from} onChange={(e) => refine({ from: e.target.value })} style={{ width: 160 }} />
        <Input type="date" aria-label="To" value={criteria.to} onChange={(e) => refine({ to: e.target.value })} style={{ width: 160 }} />
        <Button icon={<DownloadOutlined />} href={`/api/audit/events.csv?${auditFilterParams(filter)}`} download>
          Export CSV
        </Button>
      </Flex>
      {events.isError ? (
        <Result status="error" title="Could not load the events" subTitle={serverMessage(events.error)} />
      ) : (
        <ScrollRegion label="Audit log events">
          <Table<AuditEvent>
            rowKey="id"
            size="small"
            loading={events.isFetching}
            dataSource={events.data?.events}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: events.data?.total ?? 0, showSizeChanger: false, onChange: setPage }}
            columns={[
              { title: 'Occurred', dataIndex: 'occurredAt', render: when },
              { title: 'Recorded', dataIndex: 'recordedAt', render: when },
              { title: 'Event', dataIndex: 'description' },
              { title: 'Actor', dataIndex: 'actor' },
              { title: 'Entity', dataIndex: 'streamName', render: (stream: string) => <Typography.Text code>{stream}</Typography.Text> },
            ]}
          />
        </ScrollRegion>
      )}
    </Card>
  );
}
