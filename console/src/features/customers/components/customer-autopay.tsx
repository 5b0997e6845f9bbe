import { Flex, Skeleton, Tag, Typography } from 'antd';
import { formatDate, formatDollars } from '../../../lib/format.ts';
import { usePaymentProfile } from '../api/get-payment-profile.ts';

const brandNames: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };

/** Whether autopay is on and with which card (never a number: brand, last 4, expiry), and the latest autopay charge. */
export function CustomerAutopay({ customerId }: { customerId: string }) {
  const profile = usePaymentProfile(customerId);
  if (profile.isPending) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  if (profile.isError) return <Typography.Text type="secondary">Autopay could not be loaded</Typography.Text>;
  const { autopay, cards, charges, automaticCharging } = profile.data;
  const card = cards.find((c) => c.autopay) ?? cards[0];
  const latest = charges[0];
  return (
    <Flex vertical gap={4} data-testid="customer-autopay">
      <Flex gap={8} align="center">
        <Typography.Text type="secondary">Autopay</Typography.Text>
        <Tag color={autopay ? 'green' : 'default'}>{autopay ? 'On' : 'Off'}</Tag>
        {autopay && !automaticCharging && <Tag color="orange">Automatic Charging off</Tag>}
      </Flex>
      <Typography.Text type="secondary">
        {card
          ? `${brandNames[card.brand] ?? card.brand} ending in ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`
          : 'No saved card'}
      </Typography.Text>
      {latest && (
        <Typography.Text type={latest.status === 'failed' ? 'danger' : 'secondary'}>
          {latest.status === 'succeeded'
            ? `Charged ${formatDollars(latest.amount)} on ${formatDate(latest.date)}`
            : latest.status === 'attempted'
              ? `Charge of ${formatDollars(latest.amount)} under way (${formatDate(latest.date)})`
              : `Charge of ${formatDollars(latest.amount)} failed on ${formatDate(latest.date)}: ${latest.reason ?? 'declined'}${latest.nextAttemptOn ? `; next try ${formatDate(latest.nextAttemptOn)}` : latest.requiresAction ? '; the renter must pay in the portal' : '; no more tries'}`}
        </Typography.Text>
      )}
    </Flex>
  );
}
