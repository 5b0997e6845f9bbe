import { EnvironmentOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { Customer, CustomerAccount } from '@storage/contracts/customers';
import { Card, Col, Descriptions, Flex, Row, Skeleton, Statistic, Tag, Typography } from 'antd';
import { customerStatusColor, customerStatusLabel } from '../../../lib/customer-status.ts';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { ChangeStandingButton } from './change-standing-button.tsx';
import { CustomerAutopay } from './customer-autopay.tsx';

const standingWords = { CURRENT: { label: 'Current', color: 'green' }, OVERDUE: { label: 'Overdue', color: 'red' } } as const;

const none = <Typography.Text type="secondary">—</Typography.Text>;

/** Who the customer is and how to reach them, beside what they owe: the top of the customer page. */
export function CustomerProfile({
  customer,
  account,
  facilityName,
  canChangeStanding,
}: {
  customer: Customer;
  account: CustomerAccount | undefined;
  facilityName: string | null;
  /** Staff who change customers may change the standing beside its badge. */
  canChangeStanding: boolean;
}) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={16}>
        <Card
          title="Contact Details"
          className="stretch-card"
          extra={
            <Flex gap={8} align="center">
              <Tag color={customerStatusColor(customer.status)} data-testid="customer-status">
                {customerStatusLabel(customer.status)}
              </Tag>
              {canChangeStanding && <ChangeStandingButton customer={customer} />}
            </Flex>
          }
          data-testid="customer-contact"
        >
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label="Email">
              <Typography.Link href={`mailto:${customer.email}`} className="customer-email">
                <MailOutlined className="card-line-icon" />
                {customer.email}
              </Typography.Link>
            </Descriptions.Item>
            <Descriptions.Item label="Phone">
              {customer.phone ? (
                <span>
                  <PhoneOutlined className="card-line-icon" />
                  {customer.phone}
                </span>
              ) : (
                none
              )}
            </Descriptions.Item>
            <Descriptions.Item label="Address" span={{ xs: 1, md: 2 }}>
              {customer.address ? (
                <span>
                  <EnvironmentOutlined className="card-line-icon" />
                  {customer.address}
                </span>
              ) : (
                none
              )}
            </Descriptions.Item>
            <Descriptions.Item label="Emergency Contact">{customer.emergencyContact ?? none}</Descriptions.Item>
            <Descriptions.Item label="Emergency Phone">{customer.emergencyPhone ?? none}</Descriptions.Item>
            <Descriptions.Item label="Facility">{facilityName ?? none}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title="Balance" className="stretch-card" data-testid="customer-balance">
          {account ? (
            <Flex vertical gap={8}>
              <Flex gap={24} wrap>
                <div data-testid="customer-open-balance">
                  <Statistic title="Outstanding Balance" value={formatDollars(account.openBalance)} />
                </div>
                <div data-testid="customer-credit">
                  <Statistic title="Account Credit" value={formatDollars(account.credit)} />
                </div>
              </Flex>
              <Flex gap={8} align="center">
                <Typography.Text type="secondary">Account Status</Typography.Text>
                <Tag color={standingWords[account.standing].color}>{standingWords[account.standing].label}</Tag>
              </Flex>
              <Typography.Text type="secondary">
                {account.payments.length === 0 ? 'No payments yet' : `Last payment ${formatDate(account.payments[0]!.createdAt)}`}
              </Typography.Text>
              <CustomerAutopay customerId={customer.id} />
            </Flex>
          ) : (
            <Skeleton active paragraph={{ rows: 2 }} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
