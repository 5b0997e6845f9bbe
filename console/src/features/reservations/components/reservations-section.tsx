import type { WaitlistEntry } from '@storage/contracts/public';
import type { Reservation } from '@storage/contracts/reservations';
import { Button, Card, Popconfirm, Space, Table, Tabs, Tag, Typography } from 'antd';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useToast } from '../../../lib/toast.tsx';
import { type ReservationDecision, useDecideReservation } from '../api/decide-reservation.ts';
import { useOpenReservations, useWaitlist } from '../api/get-reservations.ts';

/** Online reservations waiting for staff, and renters waiting for a unit. */
export function ReservationsSection({ facilityId, onDecided }: { facilityId: string | null; onDecided: () => void }) {
  const reservations = useOpenReservations(facilityId);
  const waitlist = useWaitlist(facilityId);
  const decide = useDecideReservation();
  const toast = useToast();

  const run = (decision: ReservationDecision) =>
    decide.mutate(
      decision,
      decision.decision === 'convert'
        ? toast.outcome('Reservation converted to a lease', 'Failed to convert reservation', onDecided)
        : toast.outcome('Reservation cancelled', 'Failed to cancel reservation', onDecided),
    );

  const reservationColumns = [
    {
      title: 'Customer',
      key: 'customer',
      render: (_: unknown, r: Reservation) => (
        <>
          <CustomerCell name={r.customerName} email={r.customerEmail} phone={r.customerPhone} />
          {r.customerId === null && (
            <div>
              <Tag color="gold">Pending contact</Tag>
              {r.matchedCustomer && <Typography.Text type="warning">Matches existing customer {r.matchedCustomer.name}</Typography.Text>}
            </div>
          )}
        </>
      ),
    },
    { title: 'Unit', key: 'unit', render: (_: unknown, r: Reservation) => `${r.unitNumber} (${r.size}) · ${formatDollars(r.monthlyRate)}/month` },
    { title: 'Move-in', key: 'moveIn', render: (_: unknown, r: Reservation) => formatDate(r.moveInDate) },
    { title: 'Submitted', key: 'submitted', render: (_: unknown, r: Reservation) => formatDate(r.submittedAt) },
    { title: 'Requests', dataIndex: 'specialRequests', key: 'requests', render: (v: string | null) => v ?? '—' },
    {
      title: 'Actions',
      key: 'actions',
      render: (_: unknown, r: Reservation) =>
        r.status === 'converting' ? (
          <Tag color="processing">Moving in…</Tag>
        ) : (
          <Space wrap>
            {r.customerId !== null && (
              <Popconfirm
                title={`Start a lease for ${r.customerName} on unit ${r.unitNumber}?`}
                onConfirm={() => run({ reservationId: r.id, decision: 'convert' })}
              >
                <Button type="primary" size="small" loading={decide.isPending}>
                  Convert to lease
                </Button>
              </Popconfirm>
            )}
            {r.customerId === null && r.matchedCustomer && (
              <Popconfirm
                title={`Start a lease for ${r.matchedCustomer.name}, the existing customer, on unit ${r.unitNumber}?`}
                description="Only if you have checked that this renter is that customer."
                onConfirm={() => run({ reservationId: r.id, decision: 'convert', customer: { customerId: r.matchedCustomer!.id } })}
              >
                <Button type="primary" size="small" loading={decide.isPending}>
                  Link to {r.matchedCustomer.name}
                </Button>
              </Popconfirm>
            )}
            {r.customerId === null && (
              <Popconfirm
                title={`Add ${r.customerName} as a new customer and start a lease on unit ${r.unitNumber}?`}
                onConfirm={() => run({ reservationId: r.id, decision: 'convert', customer: { createCustomer: true } })}
              >
                <Button size="small" loading={decide.isPending}>
                  Convert as new customer
                </Button>
              </Popconfirm>
            )}
            <Popconfirm title="Cancel this reservation? The unit becomes available." onConfirm={() => run({ reservationId: r.id, decision: 'cancel' })}>
              <Button danger size="small" loading={decide.isPending}>
                Cancel
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];

  const waitlistColumns = [
    {
      title: 'Name',
      key: 'name',
      render: (_: unknown, w: WaitlistEntry) => <CustomerCell name={`${w.firstName} ${w.lastName}`} email={w.email} phone={w.phone} />,
    },
    { title: 'Size', dataIndex: 'size', key: 'size', render: (v: string | null) => v ?? 'Any' },
    { title: 'Facility', dataIndex: 'facilityName', key: 'facility', render: (v: string | null) => v ?? 'Any' },
    { title: 'Joined', dataIndex: 'joinedAt', key: 'joined', render: (v: string) => formatDate(v) },
  ];

  return (
    <Card title="Reservations" style={{ marginBottom: 24 }}>
      <Tabs
        items={[
          {
            key: 'open',
            label: `Open Reservations (${reservations.data?.length ?? 0})`,
            children: (
              <ScrollRegion label="Open reservations">
                <Table<Reservation>
                  rowKey="id"
                  size="small"
                  loading={reservations.isLoading}
                  dataSource={reservations.data ?? []}
                  columns={reservationColumns}
                  pagination={false}
                  locale={{ emptyText: 'No open reservations' }}
                />
              </ScrollRegion>
            ),
          },
          {
            key: 'waitlist',
            label: `Waiting List (${waitlist.data?.length ?? 0})`,
            children: (
              <ScrollRegion label="Waiting list">
                <Table<WaitlistEntry>
                  rowKey="id"
                  size="small"
                  loading={waitlist.isLoading}
                  dataSource={waitlist.data ?? []}
                  columns={waitlistColumns}
                  pagination={false}
                  locale={{ emptyText: 'Nobody is waiting for a unit' }}
                />
              </ScrollRegion>
            ),
          },
        ]}
      />
    </Card>
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
