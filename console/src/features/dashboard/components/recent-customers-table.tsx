import { EditOutlined, EyeOutlined, SearchOutlined } from '@ant-design/icons';
import type { RecentCustomer } from '@storage/contracts/dashboard';
import { Button, Card, Flex, Input, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { CustomerLink, customerPath } from '../../../components/customer-link.tsx';
import { DataTable, dataTableColumns } from '../../../components/data-table.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { customerStatusColor, customerStatusLabel } from '../../../lib/customer-status.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useCanChange } from '../../../lib/staff-permissions.ts';
import { useRecentCustomers } from '../api/get-recent-customers.ts';

const noUnit = (
  <Typography.Text type="secondary" title="No unit assigned">
    --
  </Typography.Text>
);

const column = dataTableColumns<RecentCustomer>();
/** `edit`: null for a member who changes nothing (an auditor), who is offered View alone. */
function recentCustomerColumns(actions: { view: (customerId: string) => void; edit: ((customer: RecentCustomer) => void) | null }) {
  const { edit } = actions;
  return column.columns([
    column.accessor((customer) => `${customer.firstName} ${customer.lastName}`, {
      id: 'name',
      header: 'Name',
      cell: (info) => (
        <Typography.Text strong>
          <CustomerLink customerId={info.row.original.id}>{info.getValue()}</CustomerLink>
        </Typography.Text>
      ),
    }),
    column.accessor('email', { header: 'Email' }),
    column.accessor('status', {
      header: 'Status',
      cell: (info) => <Tag color={customerStatusColor(info.getValue())}>{customerStatusLabel(info.getValue())}</Tag>,
    }),
    column.accessor('unitNumbers', { header: 'Unit', cell: (info) => (info.getValue().length > 0 ? info.getValue().join(', ') : noUnit) }),
    column.accessor('monthlyRate', { header: 'Monthly Rate', cell: (info) => (info.getValue() ? formatDollars(info.getValue()!) : noUnit) }),
    column.accessor('createdAt', { header: 'Created', cell: (info) => formatDate(info.getValue()) }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: customer } }) => (
        <Flex gap={4}>
          <Button size="small" icon={<EyeOutlined />} onClick={() => actions.view(customer.id)}>
            View
          </Button>
          {edit && (
            <Button size="small" icon={<EditOutlined />} onClick={() => edit(customer)}>
              Edit
            </Button>
          )}
        </Flex>
      ),
    }),
  ]);
}

/** The newest customers (at most 5, spec §9) with what they rent. */
export function RecentCustomersTable({ onEdit }: { onEdit: (customer: RecentCustomer) => void }) {
  const { input, setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  const customers = useRecentCustomers({ facilityId: selectedFacility?.id ?? null, search });
  const [, navigate] = useLocation();
  const canChange = useCanChange();

  const columns = useMemo(
    () => recentCustomerColumns({ view: (customerId) => navigate(customerPath(customerId)), edit: canChange ? onEdit : null }),
    [navigate, onEdit, canChange],
  );

  return (
    <Card
      title="Recent Customers"
      extra={
        <Button type="link" onClick={() => navigate('/customers')}>
          View All
        </Button>
      }
      styles={{ body: { padding: 0 } }}
    >
      <div className="data-table-toolbar">
        <Input
          style={{ maxWidth: 360 }}
          prefix={<SearchOutlined />}
          placeholder="Search customers..."
          aria-label="Search recent customers"
          allowClear
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
      </div>
      <DataTable
        label="Recent customers"
        columns={columns}
        rows={customers.isError ? [] : customers.data}
        getRowId={(customer) => customer.id}
        dimmed={customers.isPlaceholderData}
        empty={customers.isError ? 'Could not load customers' : search ? 'No customers found matching your search' : 'No customers yet'}
      />
    </Card>
  );
}
