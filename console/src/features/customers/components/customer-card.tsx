import { EnvironmentOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Card, Flex, Tag, Typography } from 'antd';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { customerStatusColor, customerStatusLabel } from '../../../lib/customer-status.ts';
import { useCanChange, useCanReadHistory } from '../../../lib/staff-permissions.ts';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { ArchiveCustomerButton } from './archive-customer-button.tsx';
import { EditCustomerButton } from './edit-customer-button.tsx';

export function CustomerCard({ customer }: { customer: Customer }) {
  const canChange = useCanChange();
  const canReadHistory = useCanReadHistory();
  const name = `${customer.firstName} ${customer.lastName}`;
  return (
    <Card
      data-testid="customer-card"
      className="stretch-card"
      title={<CustomerLink customerId={customer.id}>{name}</CustomerLink>}
      extra={<Tag color={customerStatusColor(customer.status)}>{customerStatusLabel(customer.status)}</Tag>}
      actions={[
        ...(canChange ? [<EditCustomerButton key="edit" customer={customer} />, <ArchiveCustomerButton key="archive" customer={customer} />] : []),
        ...(canReadHistory ? [<HistoryButton key="history" streamType="customer" id={customer.id} title={name} />] : []),
      ]}
    >
      <Flex vertical gap={8}>
        <Typography.Text ellipsis>
          <MailOutlined className="card-line-icon" />
          {customer.email}
        </Typography.Text>
        {customer.phone && (
          <Typography.Text>
            <PhoneOutlined className="card-line-icon" />
            {customer.phone}
          </Typography.Text>
        )}
        {customer.address && (
          <Typography.Text type="secondary">
            <EnvironmentOutlined className="card-line-icon" />
            {customer.address}
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
