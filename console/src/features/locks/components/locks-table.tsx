import { isLockOffline, type Lock, type lockSorting } from '@storage/contracts/locks';
import type { ListTotal } from '@storage/contracts/page-info';
import { Flex, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { useFacilities } from '../../../lib/facilities.ts';
import { ageLabel } from '../../../lib/format.ts';
import type { ListState } from '../../../lib/list-state.ts';
import { gapDuration, lockStateLabel, lockStatusColor, lockStatusLabel } from '../lock-status.ts';
import { BatteryLevel } from './battery-level.tsx';
import { LockDetailsDrawer } from './lock-details-drawer.tsx';

const LOADING_PLACEHOLDER_ROWS = 10;

const column = dataTableColumns<Lock>();

/** What the lock should be, and whether its gateway has applied it (the cards' Desired and Reported, in one cell). */
function AccessCell({ lock }: { lock: Lock }) {
  return (
    <Flex gap={6} align="center" wrap>
      <Tag color={lock.desiredState === 'overlocked' ? 'red' : 'green'}>{lockStateLabel(lock.desiredState)}</Tag>
      {lock.differsSince !== null ? (
        // The orange of the cards' 'Differs for', readable on white (WCAG AA).
        <Typography.Text style={{ color: '#ad4e00' }} data-testid="lock-not-applied">
          Not yet applied ({lock.reportedState === null ? 'no report from the lock' : `lock reports ${lockStateLabel(lock.reportedState)}`}) for{' '}
          {gapDuration(lock.differsSince)}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{lock.reportedState === null ? 'Not reported' : 'Applied'}</Typography.Text>
      )}
    </Flex>
  );
}

function lockColumns(facilityNames: Map<string, string> | null) {
  return column.columns([
    column.accessor('lockId', {
      header: 'Lock ID',
      // A lock id breaks at its hyphen in a narrow column: kept on one line.
      cell: (info) => (
        <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
          {info.getValue()}
        </Typography.Text>
      ),
    }),
    column.accessor((lock) => lock.unit?.unitNumber ?? null, {
      id: 'unit',
      header: 'Unit',
      cell: ({ row }) => {
        const unit = row.original.unit;
        if (!unit) return 'Unknown Unit';
        const facility = facilityNames && unit.facilityId ? facilityNames.get(unit.facilityId) : undefined;
        return facility ? `${unit.unitNumber} · ${facility}` : unit.unitNumber;
      },
    }),
    column.accessor('status', { header: 'Status', cell: (info) => <Tag color={lockStatusColor(info.getValue())}>{lockStatusLabel(info.getValue())}</Tag> }),
    column.accessor('batteryLevel', { header: 'Battery', cell: (info) => <BatteryLevel level={info.getValue()} /> }),
    column.accessor('firmwareVersion', { header: 'Firmware', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('lastSeen', {
      header: 'Last seen',
      cell: (info) => (
        <Flex gap={6} align="center" wrap>
          {ageLabel(info.getValue())}
          {isLockOffline(info.getValue(), new Date()) && <Tag color="default">Offline</Tag>}
        </Flex>
      ),
    }),
    column.display({ id: 'access', header: 'Access', cell: ({ row }) => <AccessCell lock={row.original} /> }),
  ]);
}

type LocksTableProps = {
  locks: Lock[] | undefined;
  list: Pick<ListState<keyof typeof lockSorting.columns>, 'sorting' | 'sort' | 'setSort' | 'page' | 'setPage'>;
  pageSize: number;
  total: ListTotal;
  /** All Facilities is in view: each unit says its facility. */
  withFacility: boolean;
  failure: Error | null;
  dimmed: boolean;
};

/** The fleet as a dense table: a row (click, or Enter) opens the lock's details. */
export function LocksTable({ locks, list, pageSize, total, withFacility, failure, dimmed }: LocksTableProps) {
  const facilities = useFacilities().data;
  const columns = useMemo(() => lockColumns(withFacility && facilities ? new Map(facilities.map((f) => [f.id, f.name])) : null), [withFacility, facilities]);
  const [opened, setOpened] = useState<Lock | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The lock as the list last read it, while it is still on the page.
  const shown = opened && (locks?.find((lock) => lock.id === opened.id) ?? opened);
  const open = (lock: Lock) => {
    setOpened(lock);
    setDrawerOpen(true);
  };

  return (
    <>
      <DataTable
        label="Smart locks"
        columns={columns}
        rows={locks}
        getRowId={(lock) => lock.id}
        list={list}
        sortLabels={{ batteryLevel: 'Battery', lastSeen: 'Last seen' }}
        pageSize={pageSize}
        total={total}
        failure={failure ? { title: 'Could not load smart locks', error: failure } : null}
        dimmed={dimmed}
        empty="No smart locks found"
        placeholderRows={LOADING_PLACEHOLDER_ROWS}
        rowTestId="lock-row"
        placeholderTestId="lock-placeholder-row"
        onOpenRow={open}
      />
      {shown && <LockDetailsDrawer lock={shown} open={drawerOpen} onClose={() => setDrawerOpen(false)} />}
    </>
  );
}
