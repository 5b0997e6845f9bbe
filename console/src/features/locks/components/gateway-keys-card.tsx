import { KeyOutlined } from '@ant-design/icons';
import type { IssuedGatewayKey } from '@storage/contracts/locks';
import { serverMessage } from '@storage/web-client/api';
import { Alert, Button, Card, Divider, Empty, Flex, Modal, Popconfirm, Skeleton, Typography } from 'antd';
import { Fragment, useState } from 'react';
import { formatDate } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { useGatewayKey } from '../api/get-gateway-key.ts';
import { useIssueGatewayKey } from '../api/issue-gateway-key.ts';

export type GatewayKeysCardProps = {
  /** The facilities to list, e.g. from the facilities feature's list. */
  facilities: ReadonlyArray<{ id: string; name: string }>;
  /** Only owners create and rotate keys (the server says so too); others see the keys' prefixes. */
  canManage?: boolean;
  loading?: boolean;
};

type Issued = IssuedGatewayKey & { facilityName: string };

/** Each facility's lock gateway key: create it, or rotate it; a new key is shown once, to copy into the gateway. */
export function GatewayKeysCard({ facilities, canManage = true, loading = false }: GatewayKeysCardProps) {
  const [issued, setIssued] = useState<Issued | null>(null);
  return (
    <Card title="Lock Gateway Keys" data-testid="gateway-keys-card">
      <Typography.Paragraph type="secondary">
        A facility&apos;s lock gateway reports battery and heartbeats with this key. Rotating it stops the old key at once.
      </Typography.Paragraph>
      {!canManage && <Typography.Paragraph type="secondary">Only an owner can create or rotate a gateway key.</Typography.Paragraph>}
      {loading ? (
        <Skeleton active />
      ) : facilities.length === 0 ? (
        <Empty description="No facilities" />
      ) : (
        facilities.map((facility, index) => (
          <Fragment key={facility.id}>
            {index > 0 && <Divider style={{ margin: '12px 0' }} />}
            <FacilityGatewayKey facility={facility} canManage={canManage} onIssued={(key) => setIssued({ ...key, facilityName: facility.name })} />
          </Fragment>
        ))
      )}
      <Modal
        open={issued !== null}
        title={`New gateway key for ${issued?.facilityName ?? ''}`}
        onCancel={() => setIssued(null)}
        footer={<Button onClick={() => setIssued(null)}>Done</Button>}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title="Copy this key now: it is not shown again." />
          <Typography.Paragraph copyable={{ text: issued?.key ?? '' }} code data-testid="issued-gateway-key" style={{ wordBreak: 'break-all', margin: 0 }}>
            {issued?.key}
          </Typography.Paragraph>
        </Flex>
      </Modal>
    </Card>
  );
}

function FacilityGatewayKey({
  facility,
  canManage,
  onIssued,
}: {
  facility: { id: string; name: string };
  canManage: boolean;
  onIssued: (issued: IssuedGatewayKey) => void;
}) {
  const gatewayKey = useGatewayKey(facility.id);
  const issueKey = useIssueGatewayKey();
  const toast = useToast();
  const hasKey = Boolean(gatewayKey.data);

  const issue = () =>
    issueKey.mutate(
      facility.id,
      hasKey
        ? toast.outcome('Gateway key rotated', 'Failed to rotate gateway key', onIssued)
        : toast.outcome('Gateway key created', 'Failed to create gateway key', onIssued),
    );

  const button = (
    <Button icon={<KeyOutlined />} loading={issueKey.isPending} disabled={gatewayKey.isPending} onClick={hasKey ? undefined : issue}>
      {hasKey ? 'Rotate Key' : 'Create Key'}
    </Button>
  );

  const description = gatewayKey.isPending
    ? 'Loading...'
    : gatewayKey.isError
      ? serverMessage(gatewayKey.error)
      : gatewayKey.data
        ? `Key ${gatewayKey.data.keyPrefix}… created ${formatDate(gatewayKey.data.createdAt)}`
        : 'No key yet';

  return (
    <Flex data-testid="gateway-key-row" justify="space-between" align="center" gap={12} wrap>
      <Flex vertical style={{ minWidth: 0 }}>
        <Typography.Text strong>{facility.name}</Typography.Text>
        <Typography.Text type="secondary">{description}</Typography.Text>
      </Flex>
      {/* A member who may not create or rotate a key is not offered to (the card says who may). */}
      {!canManage ? null : hasKey ? (
        <Popconfirm title="Rotate this key?" description="The gateway's current key stops working at once." okText="Rotate" onConfirm={issue}>
          {button}
        </Popconfirm>
      ) : (
        button
      )}
    </Flex>
  );
}
