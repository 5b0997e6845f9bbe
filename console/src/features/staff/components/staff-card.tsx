import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import type { StaffMember } from '@storage/contracts/staff';
import { serverMessage } from '@storage/web-client/api';
import { Button, Card, Divider, Empty, Flex, Popconfirm, Result, Select, Skeleton, Tag, Typography } from 'antd';
import { Fragment, useState } from 'react';
import { useToast } from '../../../lib/toast.tsx';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { useChangeStaffRole, useSetStaffActive, useStaff } from '../api/staff.ts';
import { AddStaffDialog, roleOptions } from './add-staff-dialog.tsx';

const nameOf = (member: StaffMember) => [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email;

/** Owners manage the team in Settings: add a member, change a role, deactivate (their sessions end) and reactivate. */
export function StaffCard({ currentUserId }: { currentUserId: string }) {
  const staff = useStaff();
  const [adding, setAdding] = useState(false);

  return (
    <Card
      data-testid="staff-card"
      title={
        <Flex gap={8} align="center">
          <TeamOutlined />
          Staff
        </Flex>
      }
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          Add Staff Member
        </Button>
      }
    >
      <AddStaffDialog open={adding} onClose={() => setAdding(false)} />
      {staff.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {staff.isError && <Result status="error" title="Could not load staff" subTitle={serverMessage(staff.error)} />}
      {staff.isSuccess && staff.data.length === 0 && <Empty description="No staff yet" />}
      {staff.isSuccess &&
        staff.data.map((member, index) => (
          <Fragment key={member.id}>
            {index > 0 && <Divider style={{ margin: '12px 0' }} />}
            <StaffRow member={member} isYou={member.id === currentUserId} />
          </Fragment>
        ))}
    </Card>
  );
}

function StaffRow({ member, isYou }: { member: StaffMember; isYou: boolean }) {
  const changeRole = useChangeStaffRole();
  const setActive = useSetStaffActive();
  const toast = useToast();
  const active = member.status === 'active';
  const name = nameOf(member);

  return (
    <Flex gap={16} align="center" justify="space-between" wrap data-testid="staff-row" data-email={member.email}>
      <Flex vertical gap={2} style={{ minWidth: 0 }}>
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong delete={!active}>
            {name}
          </Typography.Text>
          {isYou && <Tag color="blue">You</Tag>}
          {!active && <Tag color="default">Deactivated</Tag>}
        </Flex>
        <Typography.Text type="secondary">{member.email}</Typography.Text>
      </Flex>
      <Flex gap={8} align="center" wrap>
        <HistoryButton streamType="staff" id={member.id} title={name} />
        <Select
          aria-label={`Role of ${member.email}`}
          value={member.role}
          options={roleOptions}
          style={{ width: 130 }}
          disabled={!active || changeRole.isPending}
          onChange={(role) =>
            changeRole.mutate(
              { staffId: member.id, role },
              toast.outcome(`${name} is now ${roleOptions.find((o) => o.value === role)!.label.toLowerCase()}`, 'Failed to change role'),
            )
          }
        />
        {active && !isYou && (
          <Popconfirm
            title={`Deactivate ${name}?`}
            description="They are signed out at once and can no longer sign in."
            okText="Deactivate"
            okButtonProps={{ danger: true }}
            onConfirm={() => setActive.mutate({ staffId: member.id, active: false }, toast.outcome(`${name} deactivated`, 'Failed to deactivate'))}
          >
            <Button danger loading={setActive.isPending}>
              Deactivate
            </Button>
          </Popconfirm>
        )}
        {!active && (
          <Button
            loading={setActive.isPending}
            onClick={() => setActive.mutate({ staffId: member.id, active: true }, toast.outcome(`${name} reactivated`, 'Failed to reactivate'))}
          >
            Reactivate
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
