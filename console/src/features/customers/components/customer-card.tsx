import { EnvironmentOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { Customer } from '@storage/contracts/customers';
import { Card, Flex, Tag, Typography } from 'antd';
import { CustomerLink } from '../../../components/customer-link.tsx';
import { customerStatusColor, customerStatusLabel } from '../../../lib/customer-status.ts';
import { useCanChange, useCanReadHistory } from '../../../lib/staff-permissions.ts';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { ArchiveCustomerButton } from './archive-customer-button.tsx';
import { EditCustomerButton } from './edit-customer-button.tsx';
import { RestoreCustomerButton } from './restore-customer-button.tsx';

/** `archived`: the customer is in the archive, which has no page of theirs; they can be restored. */
export function CustomerCard({ customer, archived = false }: { customer: Customer; archived?: boolean }) {
  const canChange = useCanChange();
  const canReadHistory = useCanReadHistory();
  const name = `${customer.firstName} ${customer.lastName}`;
  const changes = archived
    ? [<RestoreCustomerButton key="restore" customer={customer} />]
    : [<EditCustomerButton key="edit" customer={customer} />, <ArchiveCustomerButton key="archive" customer={customer} />];
  return (
    <Card
      data-testid="customer-card"
      className="stretch-card"
      title={archived ? name : <CustomerLink customerId={customer.id}>{name}</CustomerLink>}
      extra={archived ? <Tag>Archived</Tag> : <Tag color={customerStatusColor(customer.status)}>{customerStatusLabel(customer.status)}</Tag>}
      actions={[
        ...(canChange ? changes : []),
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
