import type { FieldChange, HistoryStreamType } from '@storage/contracts/history';
import { serverMessage } from '@storage/web-client/api';
import { Descriptions, Empty, Flex, Input, Result, Skeleton, Tabs, type TabsProps, Timeline, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { useCanReadHistory } from '../../../lib/staff-permissions.ts';
import { useEntityHistory } from '../api/get-entity-history.ts';

/** The server words the change (an id as the number or name it stands for); a dash stands for no value. */
function changeText({ label, beforeText, afterText }: FieldChange): string {
  return `${label}: ${beforeText ?? '—'} → ${afterText ?? '—'}`;
}

/** A `datetime-local` value (the browser's time zone) as an ISO instant; null when empty. */
function instantOf(local: string): string | null {
  const at = new Date(local);
  return local && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

/** An entity's events (when, who, what changed) and, for a chosen date, its state as of then. */
export function EntityHistory({ streamType, id }: { streamType: HistoryStreamType; id: string }) {
  const [asOfInput, setAsOfInput] = useState('');
  const asOf = instantOf(asOfInput);
  const history = useEntityHistory(streamType, id, asOf);

  if (history.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (history.isError) return <Result status="error" title="Could not load the history" subTitle={serverMessage(history.error)} />;
  const { events, stateAsOfText } = history.data;
  return (
    <Flex vertical gap={16} className="entity-history">
      <label>
        <Typography.Text strong>As of </Typography.Text>
        <Input
          type="datetime-local"
          aria-label="As of"
          value={asOfInput}
          onChange={(event) => setAsOfInput(event.target.value)}
          style={{ width: 240 }}
          allowClear
        />
      </label>
      {asOf &&
        (stateAsOfText ? (
          <Descriptions column={1} size="small" bordered title={`State as of ${formatDate(asOf)}, ${formatTime12h(asOf)}`}>
            {stateAsOfText.map(({ field, label, text }) => (
              <Descriptions.Item key={field} label={label}>
                {text}
              </Descriptions.Item>
            ))}
          </Descriptions>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="It did not exist yet" />
        ))}
      <Timeline
        items={[...events].reverse().map((event) => ({
          key: event.id,
          content: (
            <>
              <div>{event.description}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatDate(event.occurredAt)}, {formatTime12h(event.occurredAt)} · {event.actor} · recorded {formatDate(event.recordedAt)},{' '}
                {formatTime12h(event.recordedAt)}
              </Typography.Text>
              {event.changes.length > 0 && (
                <ul className="entity-history-changes">
                  {event.changes.map((change) => (
                    <li key={change.field}>{changeText(change)}</li>
                  ))}
                </ul>
              )}
            </>
          ),
        }))}
      />
    </Flex>
  );
}

/** Details and, for owners and auditors, the entity's history beside them ("Audit Trail": the invoice details already hold a History section). */
export function WithHistoryTab({ streamType, id, children }: { streamType: HistoryStreamType; id: string; children: ReactNode }) {
  const canReadHistory = useCanReadHistory();
  if (!canReadHistory) return children;
  const items: TabsProps['items'] = [
    { key: 'details', label: 'Details', children },
    { key: 'history', label: 'Audit Trail', children: <EntityHistory streamType={streamType} id={id} />, destroyOnHidden: true },
  ];
  return <Tabs items={items} />;
}
