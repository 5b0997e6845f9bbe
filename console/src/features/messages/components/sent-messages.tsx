import type { MessageTemplateKey } from '@storage/contracts/enums';
import { type MessageStatus, messageTemplateLabels, type OutboxMessage } from '@storage/contracts/messages';
import { totalText } from '@storage/contracts/page-info';
import { serverMessage } from '@storage/web-client/api';
import { Button, Card, Descriptions, Drawer, Flex, Input, Result, Select, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatTime12h } from '../../../lib/format.ts';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useCanGiveMoneyBack } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { MESSAGES_PAGE_SIZE, useMessage, useMessages, useRetryMessage } from '../api/messages.ts';

const statusColors: Record<MessageStatus, string> = { pending: 'gold', sent: 'green', failed: 'red', suppressed: 'default' };
const statusLabels: Record<MessageStatus, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', suppressed: 'Suppressed' };

const when = (value: string | null) => (value ? `${formatDate(value)}, ${formatTime12h(value)}` : '—');

export function MessageStatusTag({ status }: { status: MessageStatus }) {
  return <Tag color={statusColors[status]}>{statusLabels[status]}</Tag>;
}

const column = dataTableColumns<OutboxMessage>();

/** The outbox as staff read it: every message to renters, newest first, in the selected facility; a message opens in a drawer. */
export function SentMessages({ customerId }: { customerId?: string }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = customerId ? null : (selectedFacility?.id ?? null);
  const [status, setStatus] = useState<MessageStatus | undefined>();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const key = `${facilityId}|${status}|${search}`;
  const page = paging.key === key ? paging.page : 1;
  const messages = useMessages({ facilityId, customerId, status, search: search || undefined, page });
  const [openId, setOpenId] = useState<string | null>(null);
  const total = messages.data?.total ?? NO_TOTAL;

  const columns = column.columns([
    column.accessor('createdAt', { header: 'Created', cell: (info) => when(info.getValue()) }),
    column.accessor('to', { header: 'To', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('templateKey', { header: 'Message', cell: (info) => messageTemplateLabels[info.getValue() as MessageTemplateKey] }),
    column.accessor('subject', {
      header: 'Subject',
      cell: (info) => (
        <Button type="link" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }} onClick={() => setOpenId(info.row.original.id)}>
          {info.getValue()}
        </Button>
      ),
    }),
    column.accessor('status', { header: 'Status', cell: (info) => <MessageStatusTag status={info.getValue()} /> }),
    column.accessor('attempts', { header: 'Attempts' }),
    column.accessor('sentAt', { header: 'Sent', cell: (info) => when(info.getValue()) }),
  ]);

  return (
    <Card
      title={customerId ? 'Messages' : undefined}
      extra={
        messages.isSuccess && (
          <Typography.Text type="secondary" data-testid="message-count">
            {totalText(total)} {total.count === 1 ? 'message' : 'messages'}
          </Typography.Text>
        )
      }
      styles={{ body: { padding: 0 } }}
    >
      {!customerId && (
        <Flex gap={8} wrap style={{ padding: 12 }}>
          <Input.Search
            allowClear
            placeholder="Search by address, subject or renter..."
            aria-label="Search messages"
            style={{ maxWidth: 360 }}
            onSearch={(value) => setSearch(value.trim())}
          />
          <Select<MessageStatus | undefined>
            allowClear
            placeholder="All statuses"
            aria-label="Status"
            style={{ width: 160 }}
            value={status}
            onChange={(value) => setStatus(value)}
            options={(Object.keys(statusLabels) as MessageStatus[]).map((value) => ({ value, label: statusLabels[value] }))}
          />
        </Flex>
      )}
      <DataTable
        label="Sent messages"
        columns={columns}
        rows={messages.data?.messages}
        getRowId={(message) => message.id}
        failure={messages.isError ? { title: 'Could not load messages', error: messages.error } : null}
        dimmed={messages.isPlaceholderData}
        empty="No messages yet"
        rowTestId="message-row"
        compact={Boolean(customerId)}
      />
      <ListPagination page={page} pageSize={MESSAGES_PAGE_SIZE} total={total} onChange={(next) => setPaging({ key, page: next })} />
      <MessageDrawer id={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
}

function MessageDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const message = useMessage(id);
  // Owners and managers (those who also give money back) may try a failed message again.
  const canRetry = useCanGiveMoneyBack();
  const retry = useRetryMessage();
  const toast = useToast();
  return (
    <Drawer open={id !== null} onClose={onClose} title="Message" size="min(640px, 100vw)" destroyOnHidden>
      {message.isPending && <Skeleton active />}
      {message.isError && <Result status="error" title="Could not load the message" subTitle={serverMessage(message.error)} />}
      {message.isSuccess && (
        <Flex vertical gap={16}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="To">{message.data.to ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Renter">{message.data.customerName ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Message">{messageTemplateLabels[message.data.templateKey]}</Descriptions.Item>
            <Descriptions.Item label="Status">
              <MessageStatusTag status={message.data.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Attempts">{message.data.attempts}</Descriptions.Item>
            {message.data.status === 'pending' && message.data.attempts > 0 && (
              <Descriptions.Item label="Next attempt">{when(message.data.nextAttemptAt)}</Descriptions.Item>
            )}
            {message.data.lastError && (
              <Descriptions.Item label={message.data.status === 'suppressed' ? 'Why' : 'Last error'}>{message.data.lastError}</Descriptions.Item>
            )}
            <Descriptions.Item label="Created">{when(message.data.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="Sent">{when(message.data.sentAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="message-subject">
            {message.data.subject}
          </Typography.Title>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="message-body">
            {message.data.body}
          </Typography.Paragraph>
          {message.data.status === 'failed' && canRetry && (
            <Button
              type="primary"
              loading={retry.isPending}
              onClick={() => retry.mutate(message.data.id, toast.outcome('The message will be tried again', 'Could not try the message again'))}
            >
              Try Again
            </Button>
          )}
          {message.data.templateKey === 'pre_lien_notice' && message.data.customerId && (
            <Button href={`/api/customers/${message.data.customerId}/pre-lien-letter.pdf`} target="_blank">
              Print letter (PDF)
            </Button>
          )}
        </Flex>
      )}
    </Drawer>
  );
}
