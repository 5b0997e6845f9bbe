import { Id } from '@storage/contracts/fields';
import type { AuditEvent } from '@storage/contracts/history';
import { Button, Descriptions, Drawer, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDate, formatTime12h } from '../../../lib/format.ts';

/** An instant in words, with the instant as stored beside it (to the millisecond, in UTC). */
function instant(at: string): ReactNode {
  return (
    <Flex vertical>
      <span>
        {formatDate(at)}, {formatTime12h(at)}
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {at}
      </Typography.Text>
    </Flex>
  );
}

const dataStyle = { margin: 0, padding: 12, background: '#fafafa', borderRadius: 6, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

const code = (text: string) => (
  <Typography.Text code copyable>
    {text}
  </Typography.Text>
);

type AuditEventDetailsProps = {
  /** The event shown; null: closed. */
  event: AuditEvent | null;
  onClose: () => void;
  /** Lists the events appended under this correlation id (the log's filter). */
  onShowRequest: (correlationId: string) => void;
};

/**
 * One event of the log in full: what, when, who, its entity and stream, its place in both, the
 * request that appended it (correlation) and the event that caused it, and its data as stored
 * (redacted). Nothing here changes anything: an auditor sees it all.
 */
export function AuditEventDetails({ event, onClose, onShowRequest }: AuditEventDetailsProps) {
  // The log filters by a UUID (the API's own request ids); a proxy's own request id is shown, not offered.
  const request = event?.correlationId && Id.safeParse(event.correlationId).success ? event.correlationId : null;
  const notRecorded = <Typography.Text type="secondary">Not recorded</Typography.Text>;
  return (
    <Drawer open={event !== null} onClose={onClose} title="Event details" size="min(640px, 100vw)" destroyOnHidden>
      {event && (
        <Flex vertical gap={16} className="audit-event-details">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Event">{event.description}</Descriptions.Item>
            <Descriptions.Item label="Type">{code(event.type)}</Descriptions.Item>
            <Descriptions.Item label="Occurred">{instant(event.occurredAt)}</Descriptions.Item>
            <Descriptions.Item label="Recorded">{instant(event.recordedAt)}</Descriptions.Item>
            <Descriptions.Item label="Actor">{event.actor}</Descriptions.Item>
            <Descriptions.Item label="Entity">{event.entity}</Descriptions.Item>
            <Descriptions.Item label="Stream">{code(event.streamName)}</Descriptions.Item>
            <Descriptions.Item label="Stream revision">{event.streamRevision ?? notRecorded}</Descriptions.Item>
            <Descriptions.Item label="Log position">{code(event.position)}</Descriptions.Item>
            <Descriptions.Item label="Event ID">{code(event.id)}</Descriptions.Item>
            <Descriptions.Item label="Correlation ID">{event.correlationId ? code(event.correlationId) : notRecorded}</Descriptions.Item>
            <Descriptions.Item label="Causation ID">
              {event.causationId ? code(event.causationId) : event.correlationId ? <Typography.Text type="secondary">None</Typography.Text> : notRecorded}
            </Descriptions.Item>
          </Descriptions>
          {request && (
            <div>
              <Button onClick={() => onShowRequest(request)}>Show this request's events</Button>
            </div>
          )}
          <section aria-label="Event data">
            <Typography.Title level={5}>Data</Typography.Title>
            <pre data-testid="audit-event-data" style={dataStyle}>
              {JSON.stringify(event.data, null, 2)}
            </pre>
          </section>
        </Flex>
      )}
    </Drawer>
  );
}
