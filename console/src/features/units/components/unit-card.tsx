import { ExpandOutlined } from '@ant-design/icons';
import { unitFeatureBadges } from '@storage/contracts/unit-features';
import type { Unit } from '@storage/contracts/units';
import { Card, Flex, Tag, Typography } from 'antd';
import { formatDollars } from '../../../lib/format.ts';
import { useCanChange, useCanReadHistory } from '../../../lib/staff-permissions.ts';
import { HistoryButton } from '../../history/components/history-button.tsx';
import { unitStatusColor, unitStatusLabel } from '../unit-status.ts';
import { UnitFeaturesButton } from './unit-features-button.tsx';
import { UnitStatusMenu } from './unit-status-menu.tsx';

export function UnitCard({ unit }: { unit: Unit }) {
  const canChange = useCanChange();
  const canReadHistory = useCanReadHistory();
  const badges = unitFeatureBadges(unit.features);
  return (
    <Card
      data-testid="unit-card"
      className="stretch-card"
      title={unit.unitNumber}
      extra={<Tag color={unitStatusColor(unit.status)}>{unitStatusLabel(unit.status)}</Tag>}
      actions={[
        ...(canChange ? [<UnitStatusMenu key="status" unit={unit} />, <UnitFeaturesButton key="features" unit={unit} />] : []),
        ...(canReadHistory ? [<HistoryButton key="history" streamType="unit" id={unit.id} title={`Unit ${unit.unitNumber}`} />] : []),
      ]}
    >
      <Flex vertical gap={6}>
        <Typography.Text>
          <ExpandOutlined className="card-line-icon" />
          {unit.size}
        </Typography.Text>
        <Typography.Text strong>{formatDollars(unit.monthlyRate)}/month</Typography.Text>
        {unit.description && <Typography.Text type="secondary">{unit.description}</Typography.Text>}
        {badges.length > 0 && (
          <Flex wrap gap={4} data-testid="unit-features">
            {badges.map((badge) => (
              <Tag key={badge.kind}>{badge.text}</Tag>
            ))}
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
