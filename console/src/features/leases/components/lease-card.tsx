import { CalendarOutlined, FileTextOutlined, HomeOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { Lease } from '@storage/contracts/leases';
import { Alert, Button, Card, Col, Divider, Flex, Popconfirm, Row, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useCanChange, useCanChangeRent, useCanReadHistory } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { useCancelMoveOut } from '../api/end-lease.ts';
import { LeaseDocumentView } from './lease-document-view.tsx';
import { LeaseProtectionBlock } from './lease-protection.tsx';
import { AwaitingSignatureTag, LeaseSignatureLine } from './lease-signature.tsx';
import { MoveOutButton } from './move-out-button.tsx';
import { ChangeRentButton, PendingRentChange } from './rent-change.tsx';

function Amount({ label, amount }: { label: string; amount: string | null }) {
  return (
    <Flex vertical>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <Typography.Text strong style={{ fontSize: 16 }}>
        {amount === null ? '—' : formatDollars(amount)}
      </Typography.Text>
    </Flex>
  );
}

function leasePeriod(lease: Lease): string {
  return lease.endDate ? `${formatDate(lease.startDate)} – ${formatDate(lease.endDate)}` : `Since ${formatDate(lease.startDate)}`;
}

/** The move-out scheduled on an active lease, with Cancel for those who move renters out. */
function ScheduledMoveOut({ lease, canCancel }: { lease: Lease & { moveOutDate: string }; canCancel: boolean }) {
  const cancel = useCancelMoveOut(lease.id);
  const toast = useToast();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="scheduled-move-out"
      title={`Moves out on ${formatDate(lease.moveOutDate)}`}
      description="The lease stays active, and is billed, up to that day; the move-out happens by itself then."
      action={
        canCancel && (
          <Popconfirm
            title="Cancel this move-out?"
            okText="Cancel Move-Out"
            cancelText="Keep It"
            onConfirm={() => cancel.mutate({}, toast.outcome('Move-out cancelled', 'Failed to cancel the move-out'))}
          >
            <Button size="small" danger loading={cancel.isPending}>
              Cancel Move-Out
            </Button>
          </Popconfirm>
        )
      }
    />
  );
}

/** `showTenant`: false on the tenant's own page, where the card is titled by its unit and leaves out their contact lines. */
export function LeaseCard({ lease, onMovedOut, showTenant = true }: { lease: Lease; onMovedOut: () => void; showTenant?: boolean }) {
  const [showDocument, setShowDocument] = useState(false);
  const { customer, unit, invoiceSummary } = lease;
  const canChange = useCanChange();
  const canReadHistory = useCanReadHistory();
  const canChangeRent = useCanChangeRent();

  const actions = [
    <Button key="document" type="text" icon={<FileTextOutlined />} aria-expanded={showDocument} onClick={() => setShowDocument((shown) => !shown)}>
      {showDocument ? 'Hide Document' : 'View Document'}
    </Button>,
    ...(lease.isActive && canChangeRent ? [<ChangeRentButton key="change-rent" lease={lease} />] : []),
    ...(lease.isActive && canChange ? [<MoveOutButton key="move-out" lease={lease} onMovedOut={onMovedOut} />] : []),
    ...(canReadHistory ? [<HistoryButton key="history" streamType="lease" id={lease.id} title={`${customer.firstName} ${customer.lastName}`} />] : []),
  ];

  return (
    <Card
      data-testid="lease-card"
      title={
        showTenant ? (
          <CustomerLink customerId={customer.id}>
            {customer.firstName} {customer.lastName}
          </CustomerLink>
        ) : (
          `Unit ${unit.unitNumber}`
        )
      }
      extra={
        <Flex gap={4}>
          <AwaitingSignatureTag lease={lease} />
          <Tag color={lease.isActive ? 'green' : 'default'} data-testid="lease-status">
            {lease.isActive ? 'Active' : 'Inactive'}
          </Tag>
        </Flex>
      }
      actions={actions}
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          <HomeOutlined className="card-line-icon" />
          Unit {unit.unitNumber} · {unit.size} · Building {unit.building}
        </Typography.Text>
        <Row gutter={16}>
          <Col span={12}>
            <Amount label="Monthly Rate" amount={lease.monthlyRate} />
          </Col>
          <Col span={12}>
            <Amount label="Deposit" amount={lease.depositAmount} />
          </Col>
        </Row>
        <Typography.Text>
          <CalendarOutlined className="card-line-icon" />
          {leasePeriod(lease)}
        </Typography.Text>
        {showTenant && (
          <>
            <Typography.Text ellipsis>
              <MailOutlined className="card-line-icon" />
              {customer.email}
            </Typography.Text>
            <Typography.Text>
              <PhoneOutlined className="card-line-icon" />
              {customer.phone ?? '—'}
            </Typography.Text>
          </>
        )}
        {lease.isActive && lease.moveOutDate !== null && <ScheduledMoveOut lease={{ ...lease, moveOutDate: lease.moveOutDate }} canCancel={canChange} />}
        {/* On the renter's own page: a rent change that is still to come, with Cancel. */}
        {!showTenant && lease.isActive && <PendingRentChange leaseId={lease.id} canCancel={canChangeRent} />}
        {/* On the renter's own page: the plan, the proof of insurance and their history. */}
        {!showTenant && <LeaseProtectionBlock leaseId={lease.id} canChange={canChange && lease.isActive} />}
        <LeaseSignatureLine lease={lease} canSign={canChange} />
        <Flex gap={8} wrap align="center" data-testid="invoice-summary">
          <Typography.Text type="secondary">Invoices:</Typography.Text>
          <Tag color="green">{invoiceSummary.paid} paid</Tag>
          <Tag color={invoiceSummary.overdue > 0 ? 'red' : 'default'}>{invoiceSummary.overdue} overdue</Tag>
          <Tag>{invoiceSummary.total} total</Tag>
        </Flex>
        {showDocument && (
          <>
            <Divider style={{ margin: '4px 0' }} />
            <LeaseDocumentView leaseId={lease.id} />
          </>
        )}
      </Flex>
    </Card>
  );
}
