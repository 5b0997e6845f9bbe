import { totalText } from '@storage/contracts/page-info';
import type { WaitlistEntry } from '@storage/contracts/public';
import { type Reservation, ReservationStatus, reservationSorting, waitlistSorting } from '@storage/contracts/reservations';
import { Button, Card, Popconfirm, Space, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { useToast } from '../../../lib/toast.tsx';
import { type ReservationDecision, useDecideReservation } from '../api/decide-reservation.ts';
import { RESERVATIONS_PAGE_SIZE, useReservations, useWaitlist } from '../api/get-reservations.ts';
import { type Conversion, ConvertReservationDialog, onlineCheckoutWords } from './convert-reservation-dialog.tsx';

const statusLabels: Record<ReservationStatus, string> = {
  submitted: 'Submitted',
  converting: 'Moving in…',
  converted: 'Converted',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
const statusColors: Record<ReservationStatus, string> = {
  submitted: 'blue',
  converting: 'processing',
  converted: 'green',
  cancelled: 'default',
  expired: 'default',
};
const statusOptions = ReservationStatus.options.map((status) => ({ value: status, label: statusLabels[status] }));

const ReservationsTab = z.enum(['open', 'waitlist']);

type Decide = (decision: ReservationDecision) => void;
type Convert = (conversion: Conversion) => void;

/** Where the renter's own online payment stands; a paying checkout no longer matters once the reservation is converted. */
function OnlineCheckoutTag({ reservation: r }: { reservation: Reservation }) {
  if (r.onlineCheckout === null || (r.onlineCheckout === 'paying' && r.status === 'converted')) return null;
  const words = onlineCheckoutWords[r.onlineCheckout];
  return (
    <Tag color={r.onlineCheckout === 'paying' ? 'orange' : 'red'} title={words.meaning} data-testid="online-checkout">
      {words.tag}
    </Tag>
  );
}

const reservationColumn = dataTableColumns<Reservation>();
/** Without the actions column for a member who cannot decide (an auditor): converting and cancelling are changes. */
function reservationColumns(run: Decide, convert: Convert, deciding: boolean, canDecide: boolean) {
  return reservationColumn.columns([
    reservationColumn.accessor((r) => r.customerName, {
      id: 'customer',
      header: 'Customer',
      cell: ({ row: { original: r } }) => (
        <div>
          <CustomerCell name={r.customerName} email={r.customerEmail} phone={r.customerPhone} />
          {r.customerId === null && r.status === 'submitted' && (
            <div>
              <Tag color="gold">Pending contact</Tag>
              {r.matchedCustomer && <Typography.Text type="warning">Matches existing customer {r.matchedCustomer.name}</Typography.Text>}
            </div>
          )}
        </div>
      ),
    }),
    reservationColumn.accessor((r) => r.unitNumber, {
      id: 'unit',
      header: 'Unit',
      cell: ({ row: { original: r } }) => `${r.unitNumber} (${r.size}) · ${formatDollars(r.monthlyRate)}/month`,
    }),
    reservationColumn.accessor('moveInDate', { header: 'Move-in', cell: (info) => formatDate(info.getValue()) }),
    reservationColumn.accessor('submittedAt', { header: 'Submitted', cell: (info) => formatDate(info.getValue()) }),
    reservationColumn.accessor('specialRequests', { header: 'Requests', cell: (info) => info.getValue() ?? '—' }),
    reservationColumn.accessor('status', {
      header: 'Status',
      cell: ({ row: { original: r } }) => (
        <Space size={4} wrap>
          <Tag color={statusColors[r.status]}>{statusLabels[r.status]}</Tag>
          <OnlineCheckoutTag reservation={r} />
        </Space>
      ),
    }),
    ...(canDecide
      ? [
          reservationColumn.display({
            id: 'actions',
            header: 'Actions',
            cell: ({ row: { original: r } }) =>
              r.status === 'submitted' ? <ReservationActions reservation={r} run={run} convert={convert} deciding={deciding} /> : '—',
          }),
        ]
      : []),
  ]);
}

const waitlistColumn = dataTableColumns<WaitlistEntry>();
const waitlistColumns = waitlistColumn.columns([
  waitlistColumn.accessor((w) => `${w.firstName} ${w.lastName}`, {
    id: 'name',
    header: 'Name',
    cell: ({ row: { original: w } }) => <CustomerCell name={`${w.firstName} ${w.lastName}`} email={w.email} phone={w.phone} />,
  }),
  waitlistColumn.accessor('size', { header: 'Size', cell: (info) => info.getValue() ?? 'Any' }),
  waitlistColumn.accessor('facilityName', { header: 'Facility', cell: (info) => info.getValue() ?? 'Any' }),
  waitlistColumn.accessor('joinedAt', { header: 'Joined', cell: (info) => formatDate(info.getValue()) }),
]);

/** Online reservations (the open ones unless another status is chosen), and renters waiting for a unit. */
export function ReservationsSection({ facilityId, onDecided }: { facilityId: string | null; onDecided: () => void }) {
  const reservationsList = useListState({
    sorting: reservationSorting,
    filters: { status: ReservationStatus, tab: ReservationsTab },
    prefix: 'reservations',
    scope: facilityId,
  });
  const waitlistList = useListState({ sorting: waitlistSorting, prefix: 'waitlist', scope: facilityId });
  const status = reservationsList.filters.status;
  const reservations = useReservations({ facilityId, status, sort: reservationsList.sort }, reservationsList.at);
  const waitlist = useWaitlist({ facilityId, sort: waitlistList.sort }, waitlistList.at);
  const decide = useDecideReservation();
  const toast = useToast();
  const canDecide = useCanChange();
  const [converting, setConverting] = useState<Conversion | null>(null);

  const columns = useMemo(
    () =>
      reservationColumns(
        (decision) =>
          decide.mutate(
            decision,
            decision.decision === 'convert'
              ? toast.outcome('Reservation converted to a lease', 'Failed to convert reservation', onDecided)
              : toast.outcome('Reservation cancelled', 'Failed to cancel reservation', onDecided),
          ),
        setConverting,
        decide.isPending,
        canDecide,
      ),
    [decide.mutate, decide.isPending, toast, onDecided, canDecide],
  );
  const reservationsTotal = reservations.data?.total ?? NO_TOTAL;

  return (
    <Card title="Reservations" style={{ marginBottom: 24 }} styles={{ body: { paddingInline: 0, paddingBlockStart: 0 } }}>
      <Tabs
        className="card-tabs"
        activeKey={reservationsList.filters.tab ?? 'open'}
        onChange={(key) => reservationsList.setFilter('tab', key === 'open' ? null : ReservationsTab.parse(key))}
        items={[
          {
            key: 'open',
            label: `${status ? `${statusLabels[status]} Reservations` : 'Open Reservations'} (${totalText(reservationsTotal)})`,
            children: (
              <>
                <div className="data-table-toolbar">
                  <StatusFilter
                    label="Reservation status"
                    allLabel="Open"
                    value={status}
                    options={statusOptions}
                    onChange={(next) => reservationsList.setFilter('status', next)}
                  />
                </div>
                <DataTable
                  label="Reservations"
                  columns={columns}
                  rows={reservations.data?.rows}
                  getRowId={(r) => r.id}
                  list={reservationsList}
                  pageSize={RESERVATIONS_PAGE_SIZE}
                  total={reservationsTotal}
                  failure={reservations.isError ? { title: 'Could not load reservations', error: reservations.error } : null}
                  dimmed={reservations.isPlaceholderData}
                  empty={status ? `No ${statusLabels[status].toLowerCase()} reservations` : 'No open reservations'}
                  placeholderRows={2}
                  rowTestId="reservation-row"
                />
              </>
            ),
          },
          {
            key: 'waitlist',
            label: `Waiting List (${totalText(waitlist.data?.total ?? NO_TOTAL)})`,
            children: (
              <DataTable
                label="Waiting list"
                columns={waitlistColumns}
                rows={waitlist.data?.rows}
                getRowId={(w) => w.id}
                list={waitlistList}
                pageSize={RESERVATIONS_PAGE_SIZE}
                total={waitlist.data?.total}
                failure={waitlist.isError ? { title: 'Could not load the waiting list', error: waitlist.error } : null}
                dimmed={waitlist.isPlaceholderData}
                empty="Nobody is waiting for a unit"
                placeholderRows={2}
                rowTestId="waitlist-row"
              />
            ),
          },
        ]}
      />
      <ConvertReservationDialog conversion={converting} onClose={() => setConverting(null)} onConverted={onDecided} />
    </Card>
  );
}

/** Converting opens the dialog (the day, the deposit, a plan, a promotion and the quote), for the customer the button names. */
function ReservationActions({ reservation: r, run, convert, deciding }: { reservation: Reservation; run: Decide; convert: Convert; deciding: boolean }) {
  return (
    <Space wrap>
      {r.customerId !== null && (
        <Button type="primary" size="small" disabled={deciding} onClick={() => convert({ reservation: r })}>
          Convert to lease
        </Button>
      )}
      {r.customerId === null && r.matchedCustomer && (
        <Button type="primary" size="small" disabled={deciding} onClick={() => convert({ reservation: r, customer: { customerId: r.matchedCustomer!.id } })}>
          Link to {r.matchedCustomer.name}
        </Button>
      )}
      {r.customerId === null && (
        <Button size="small" disabled={deciding} onClick={() => convert({ reservation: r, customer: { createCustomer: true } })}>
          Convert as new customer
        </Button>
      )}
      <Popconfirm
        title="Cancel this reservation? The unit becomes available."
        description={r.onlineCheckout === 'paying' ? 'The renter is paying online: a payment they make will be refunded.' : undefined}
        onConfirm={() => run({ reservationId: r.id, decision: 'cancel' })}
      >
        <Button danger size="small" loading={deciding}>
          Cancel
        </Button>
      </Popconfirm>
    </Space>
  );
}

function CustomerCell({ name, email, phone }: { name: string; email: string; phone: string | null }) {
  return (
    <>
      <div>{name}</div>
      <Typography.Text type="secondary">
        {email}
        {phone ? ` · ${phone}` : ''}
      </Typography.Text>
    </>
  );
}
