import { EditOutlined, EyeOutlined, SearchOutlined } from '@ant-design/icons';
import type { RecentCustomer } from '@storage/contracts/dashboard';
import { Button, Card, Flex, Input, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useLocation } from 'wouter';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { customerStatusColor, customerStatusLabel } from '../../../lib/customer-status.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { useRecentCustomers } from '../api/get-recent-customers.ts';

const noUnit = (
  <Typography.Text type="secondary" title="No unit assigned">
    --
  </Typography.Text>
);

/** The newest customers (at most 5, spec §9) with what they rent. */
export function RecentCustomersTable({ onEdit }: { onEdit: (customer: RecentCustomer) => void }) {
  const { input, setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  const customers = useRecentCustomers({ facilityId: selectedFacility?.id ?? null, search });
  const [, navigate] = useLocation();

  const columns: TableColumnsType<RecentCustomer> = [
    {
      title: 'Name',
      key: 'name',
      render: (_, customer) => (
        <Typography.Text strong>
          {customer.firstName} {customer.lastName}
        </Typography.Text>
      ),
    },
    { title: 'Email', dataIndex: 'email', key: 'email', ellipsis: true },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      render: (_, customer) => <Tag color={customerStatusColor(customer.status)}>{customerStatusLabel(customer.status)}</Tag>,
    },
    { title: 'Unit', key: 'unit', render: (_, customer) => (customer.unitNumbers.length > 0 ? customer.unitNumbers.join(', ') : noUnit) },
    { title: 'Monthly Rate', key: 'rate', render: (_, customer) => (customer.monthlyRate ? formatDollars(customer.monthlyRate) : noUnit) },
    { title: 'Created', dataIndex: 'createdAt', key: 'created', render: (_, customer) => formatDate(customer.createdAt) },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, customer) => (
        <Flex gap={4}>
          <Button size="small" icon={<EyeOutlined />} onClick={() => navigate(`/customers?search=${encodeURIComponent(customer.email)}`)}>
            View
          </Button>
          <Button size="small" icon={<EditOutlined />} onClick={() => onEdit(customer)}>
            Edit
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      title="Recent Customers"
      extra={
        <Button type="link" onClick={() => navigate('/customers')}>
          View All
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <Input
          style={{ maxWidth: 360 }}
          prefix={<SearchOutlined />}
          placeholder="Search customers..."
          aria-label="Search recent customers"
          allowClear
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <Table<RecentCustomer>
          rowKey="id"
          columns={columns}
          dataSource={customers.data ?? []}
          loading={customers.isPending || customers.isPlaceholderData}
          pagination={false}
          scroll={{ x: 'max-content' }}
          size="middle"
          locale={{
            emptyText: customers.isError ? 'Could not load customers' : search ? 'No customers found matching your search' : 'No customers yet',
          }}
        />
      </Flex>
    </Card>
  );
}
