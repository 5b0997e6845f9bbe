import { ClockCircleOutlined, CodeOutlined, HomeOutlined, SettingOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { Lock } from '@storage/contracts/locks';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ageLabel } from '../../../lib/format.ts';
import { lockStatusColor, lockStatusLabel } from '../lock-status.ts';
import { BatteryLevel } from './battery-level.tsx';
import { LockAccessState } from './lock-access-state.tsx';
import { LockDetailsDrawer } from './lock-details-drawer.tsx';

export function LockCard({ lock }: { lock: Lock }) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  return (
    <Card
      data-testid="lock-card"
      className="stretch-card"
      title={lock.lockId}
      extra={<Tag color={lockStatusColor(lock.status)}>{lockStatusLabel(lock.status)}</Tag>}
      actions={[
        <Button key="settings" type="text" icon={<SettingOutlined />} onClick={() => setDetailsOpen(true)} aria-label={`Settings of lock ${lock.lockId}`}>
          Settings
        </Button>,
      ]}
    >
      <Flex vertical gap={8}>
        <Typography.Text>
          <HomeOutlined className="card-line-icon" />
          {lock.unit?.unitNumber ?? 'Unknown Unit'}
        </Typography.Text>
        <Flex align="center">
          <ThunderboltOutlined className="card-line-icon" />
          <BatteryLevel level={lock.batteryLevel} />
        </Flex>
        <Typography.Text type="secondary">
          <ClockCircleOutlined className="card-line-icon" />
          Last seen: {ageLabel(lock.lastSeen)}
        </Typography.Text>
        <Typography.Text type="secondary">
          <CodeOutlined className="card-line-icon" />
          Firmware: {lock.firmwareVersion ?? '—'}
        </Typography.Text>
        <LockAccessState lock={lock} />
      </Flex>
      <LockDetailsDrawer lock={lock} open={detailsOpen} onClose={() => setDetailsOpen(false)} />
    </Card>
  );
}
