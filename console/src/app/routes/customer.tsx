import { ArrowLeftOutlined } from '@ant-design/icons';
import { ApiError, serverMessage } from '@storage/web-client/api';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Skeleton, Tabs, type TabsProps } from 'antd';
import { Link, useLocation, useParams } from 'wouter';
import { PageHeader } from '../../components/page-header.tsx';
import { CustomerGateCodes } from '../../features/access/components/customer-gate-codes.tsx';
import { CustomerActivity } from '../../features/activities/components/customer-activity.tsx';
import { useCustomer, useCustomerAccount } from '../../features/customers/api/get-customer.ts';
import { ArchiveCustomerButton } from '../../features/customers/components/archive-customer-button.tsx';
import { CustomerDelinquency } from '../../features/customers/components/customer-delinquency.tsx';
import { CustomerNotes } from '../../features/customers/components/customer-notes.tsx';
import { CustomerProfile } from '../../features/customers/components/customer-profile.tsx';
import { CustomerStatement } from '../../features/customers/components/customer-statement.tsx';
import { GiveCreditButton, RefundCreditButton, TakePaymentButton } from '../../features/customers/components/desk-money-buttons.tsx';
import { EditCustomerButton } from '../../features/customers/components/edit-customer-button.tsx';
import { EntityHistory } from '../../features/history/components/entity-history.tsx';
import { invoicesQueryKey } from '../../features/invoices/api/get-invoices.ts';
import { CustomerInvoices, CustomerPayments } from '../../features/invoices/components/customer-invoices.tsx';
import { CustomerLeases } from '../../features/leases/components/customer-leases.tsx';
import { SellItemsButton } from '../../features/merchandise/components/sell-items-button.tsx';
import { MessagePreferencesCard } from '../../features/messages/components/message-preferences-card.tsx';
import { SentMessages } from '../../features/messages/components/sent-messages.tsx';
import { unitsQueryKey } from '../../features/units/api/get-units.ts';
import { facilitiesQueryOptions, useFacilities } from '../../lib/facilities.ts';
import { formatDate } from '../../lib/format.ts';
import { useCanChange, useCanGiveMoneyBack, useCanReadHistory } from '../../lib/staff-permissions.ts';

const backToCustomers = (
  <Link href="/customers" className="back-link">
    <ArrowLeftOutlined /> Customers
  </Link>
);

/** A customer id that names nobody (or was archived), or is not an id at all. */
const isUnknownCustomer = (error: Error) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/** One customer: contact details, status and balance, then their leases, invoices, payments, activity and history. */
export default function CustomerPage() {
  const { customerId = '' } = useParams<{ customerId: string }>();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const customer = useCustomer(customerId);
  const account = useCustomerAccount(customerId);
  const facilities = useFacilities();
  const canChange = useCanChange();
  const canReadHistory = useCanReadHistory();
  const canGiveMoneyBack = useCanGiveMoneyBack();

  if (customer.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (customer.isError) {
    const unknown = isUnknownCustomer(customer.error);
    return (
      <Result
        status={unknown ? '404' : 'error'}
        title={unknown ? 'Customer not found' : 'Could not load the customer'}
        subTitle={unknown ? 'No customer has this link. They may have been archived, or the link is mistyped.' : serverMessage(customer.error)}
        extra={
          <Button type="primary" onClick={() => navigate('/customers')}>
            Back to Customers
          </Button>
        }
      />
    );
  }

  const person = customer.data;
  const name = `${person.firstName} ${person.lastName}`;
  const facilityName = facilities.data?.find((facility) => facility.id === person.facilityId)?.name ?? null;
  // A move-out changes the unit's status and its facility's occupancy, and may change the balance.
  const afterMoveOut = () => {
    void queryClient.invalidateQueries({ queryKey: unitsQueryKey });
    void queryClient.invalidateQueries({ queryKey: facilitiesQueryOptions().queryKey });
  };
  // A payment or a credit changes the renter's invoices.
  const afterMoney = () => queryClient.invalidateQueries({ queryKey: invoicesQueryKey });

  const tabs: TabsProps['items'] = [
    { key: 'leases', label: 'Units & Leases', children: <CustomerLeases customerId={person.id} onMovedOut={afterMoveOut} /> },
    { key: 'gate-codes', label: 'Gate Codes', children: <CustomerGateCodes customerId={person.id} canRotate={canChange} /> },
    { key: 'invoices', label: 'Invoices', children: <CustomerInvoices customerId={person.id} /> },
    { key: 'delinquency', label: 'Delinquency', children: <CustomerDelinquency customerId={person.id} canPause={canGiveMoneyBack} /> },
    { key: 'payments', label: 'Payments', children: <CustomerPayments payments={account.data?.payments} /> },
    { key: 'statement', label: 'Statement', children: <CustomerStatement customerId={person.id} /> },
    { key: 'activity', label: 'Activity', children: <CustomerActivity customerId={person.id} /> },
    { key: 'notes', label: 'Notes', children: <CustomerNotes customerId={person.id} canAdd={canChange} /> },
    {
      key: 'messages',
      label: 'Messages',
      children: (
        <Flex vertical gap={16}>
          <MessagePreferencesCard customerId={person.id} canChange={canChange} />
          <SentMessages customerId={person.id} />
          <div>
            <Button href={`/api/customers/${person.id}/pre-lien-letter.pdf`} target="_blank">
              Pre-lien letter (PDF)
            </Button>
          </div>
        </Flex>
      ),
    },
    ...(canReadHistory ? [{ key: 'history', label: 'History', children: <EntityHistory streamType="customer" id={person.id} /> }] : []),
  ];

  return (
    <Flex vertical gap={16} className="customer-page">
      {backToCustomers}
      <PageHeader
        title={name}
        subtitle={`Customer since ${formatDate(person.createdAt)}`}
        actions={
          canChange && (
            <>
              <TakePaymentButton customerId={person.id} onMoneyMoved={afterMoney} />
              <SellItemsButton customerId={person.id} facilityId={person.facilityId} onSold={afterMoney} />
              {canGiveMoneyBack && <GiveCreditButton customerId={person.id} onMoneyMoved={afterMoney} />}
              {canGiveMoneyBack && <RefundCreditButton customerId={person.id} onMoneyMoved={afterMoney} />}
              <EditCustomerButton customer={person} />
              <ArchiveCustomerButton customer={person} onArchived={() => navigate('/customers')} />
            </>
          )
        }
      />
      {account.isError && <Result status="error" title="Could not load the balance" subTitle={serverMessage(account.error)} />}
      <CustomerProfile customer={person} account={account.data} facilityName={facilityName} canChangeStanding={canChange} />
      <Card className="customer-sections">
        {/* Wrapping: on a phone every section stays a tab in view, none behind a "more" button. */}
        <Tabs items={tabs} destroyOnHidden className="wrapping-tabs" />
      </Card>
    </Flex>
  );
}
