import type { GateCode } from '@storage/contracts/access';
import { serverMessage } from '@storage/web-client/api';
import { Button, Empty, Popconfirm, Result, Skeleton, Table, type TableProps, Tag, Typography } from 'antd';
import { formatDate } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useGateCodes, useRotateGateCode } from '../api/gate-codes.ts';

const suspendedLabels: Record<NonNullable<GateCode['suspendedReason']>, string> = {
  lockout: 'Suspended (lockout)',
  move_out: 'Suspended (moved out)',
  unsigned: 'Awaiting lease signature',
};

/** The renter's gate code per lease: whether it opens the gate, and a new one on request. */
export function CustomerGateCodes({ customerId, canRotate }: { customerId: string; canRotate: boolean }) {
  const codes = useGateCodes(customerId);
  const rotate = useRotateGateCode();
  const toast = useToast();
  if (codes.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (codes.isError) return <Result status="error" title="Could not load the gate codes" subTitle={serverMessage(codes.error)} />;
  if (codes.data.length === 0) return <Empty description="No gate codes yet" />;

  const columns: TableProps<GateCode>['columns'] = [
    { key: 'unit', title: 'Unit', render: (_, code) => code.unitNumber ?? '—' },
    {
      key: 'code',
      title: 'Gate Code',
      // Null for a role that is not shown codes (auditors): the status still tells whether one opens the gate.
      render: (_, code) =>
        code.code === null ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Typography.Text code copyable={{ text: code.code }} data-testid="gate-code">
            {code.code}
          </Typography.Text>
        ),
    },
    {
      key: 'status',
      title: 'Status',
      render: (_, code) => (code.suspendedReason === null ? <Tag color="green">Active</Tag> : <Tag color="red">{suspendedLabels[code.suspendedReason]}</Tag>),
    },
    { key: 'updated', title: 'Since', render: (_, code) => formatDate(code.updatedAt) },
    ...(canRotate
      ? [
          {
            key: 'rotate',
            title: '',
            render: (_: unknown, code: GateCode) =>
              code.suspendedReason === 'move_out' ? null : (
                <Popconfirm
                  title="Give this lease a new gate code? The current one stops working."
                  onConfirm={() => rotate.mutate(code.leaseId, toast.outcome('New gate code assigned', 'Could not rotate the gate code'))}
                >
                  <Button size="small" loading={rotate.isPending && rotate.variables === code.leaseId}>
                    Rotate Code
                  </Button>
                </Popconfirm>
              ),
          },
        ]
      : []),
  ];
  return <Table<GateCode> rowKey="leaseId" columns={columns} dataSource={codes.data} pagination={false} size="small" scroll={{ x: true }} />;
}
