import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { type StaffMember, StaffStatus, staffSorting } from '@storage/contracts/staff';
import { Button, Card, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useToast } from '../../../lib/toast.tsx';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { STAFF_PAGE_SIZE, useChangeStaffRole, useResetTwoFactor, useSetStaffActive, useStaff } from '../api/staff.ts';
import { AddStaffDialog, roleOptions } from './add-staff-dialog.tsx';

const nameOf = (member: StaffMember) => [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email;

const statusOptions: Array<{ value: StaffStatus; label: string }> = [
  { value: 'active', label: 'Active' },
  { value: 'deactivated', label: 'Deactivated' },
];

const column = dataTableColumns<StaffMember>();
function staffColumns(currentUserId: string) {
  return column.columns([
    column.accessor(nameOf, {
      id: 'name',
      header: 'Name',
      cell: ({ row: { original: member } }) => (
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong delete={member.status !== 'active'}>
            {nameOf(member)}
          </Typography.Text>
          {member.id === currentUserId && <Tag color="blue">You</Tag>}
        </Flex>
      ),
    }),
    column.accessor('email', { header: 'Email', cell: (info) => <Typography.Text type="secondary">{info.getValue()}</Typography.Text> }),
    column.accessor('role', { header: 'Role', cell: ({ row: { original: member } }) => <RoleSelect member={member} /> }),
    column.accessor('status', {
      header: 'Status',
      cell: (info) => (info.getValue() === 'active' ? <Tag color="green">Active</Tag> : <Tag color="default">Deactivated</Tag>),
    }),
    column.accessor('twoFactorEnabled', {
      header: 'Two-Factor',
      cell: (info) => (info.getValue() ? <Tag color="green">On</Tag> : <Tag color="default">Off</Tag>),
    }),
    column.accessor('createdAt', { header: 'Added', cell: (info) => formatDate(info.getValue()) }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: member } }) => <StaffActions member={member} isYou={member.id === currentUserId} />,
    }),
  ]);
}

/**
 * Owners manage the team in Settings: add a member, change a role, deactivate (their sessions end)
 * and reactivate, see who signs in with two factors and reset it for a lost phone.
 */
export function StaffCard({ currentUserId }: { currentUserId: string }) {
  const list = useListState({ sorting: staffSorting, filters: { status: StaffStatus }, prefix: 'staff' });
  const staff = useStaff({ status: list.filters.status, sort: list.sort }, list.at);
  const [adding, setAdding] = useState(false);
  const columns = useMemo(() => staffColumns(currentUserId), [currentUserId]);

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
      styles={{ body: { padding: 0 } }}
    >
      <AddStaffDialog open={adding} onClose={() => setAdding(false)} />
      <div className="data-table-toolbar">
        <StatusFilter label="Staff status" value={list.filters.status} options={statusOptions} onChange={(status) => list.setFilter('status', status)} />
      </div>
      <DataTable
        label="Staff"
        columns={columns}
        rows={staff.data?.members}
        getRowId={(member) => member.id}
        list={list}
        pageSize={STAFF_PAGE_SIZE}
        total={staff.data?.total}
        failure={staff.isError ? { title: 'Could not load staff', error: staff.error } : null}
        dimmed={staff.isPlaceholderData}
        empty="No staff yet"
        placeholderRows={3}
        rowTestId="staff-row"
      />
    </Card>
  );
}

function RoleSelect({ member }: { member: StaffMember }) {
  const changeRole = useChangeStaffRole();
  const toast = useToast();
  const name = nameOf(member);
  return (
    <Select
      aria-label={`Role of ${member.email}`}
      value={member.role}
      options={roleOptions}
      style={{ width: 130 }}
      disabled={member.status !== 'active' || changeRole.isPending}
      onChange={(role) =>
        changeRole.mutate(
          { staffId: member.id, role },
          toast.outcome(`${name}'s role is now ${roleOptions.find((o) => o.value === role)!.label}`, 'Failed to change role'),
        )
      }
    />
  );
}

function StaffActions({ member, isYou }: { member: StaffMember; isYou: boolean }) {
  const setActive = useSetStaffActive();
  const resetTwoFactor = useResetTwoFactor();
  const toast = useToast();
  const active = member.status === 'active';
  const name = nameOf(member);

  return (
    <Flex gap={8} align="center" wrap>
      <HistoryButton streamType="staff" id={member.id} title={name} />
      {member.twoFactorEnabled && !isYou && (
        <Popconfirm
          title={`Reset ${name}'s two-factor sign-in?`}
          description="For a lost phone: they sign in with their password alone, and can set it up again."
          okText="Reset"
          okButtonProps={{ danger: true }}
          onConfirm={() => resetTwoFactor.mutate(member.id, toast.outcome(`${name}'s two-factor sign-in was reset`, 'Failed to reset two-factor sign-in'))}
        >
          <Button loading={resetTwoFactor.isPending}>Reset Two-Factor</Button>
        </Popconfirm>
      )}
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
  );
}
