import { isLowBattery } from '@storage/contracts/locks';
import { Flex, Progress, Typography } from 'antd';

const HALF_CHARGE = 50;

function barColor(level: number): string {
  if (isLowBattery(level)) return '#ff4d4f';
  if (level < HALF_CHARGE) return '#faad14';
  return '#52c41a';
}

/** The battery percentage with a bar; '—' when the lock never reported one. */
export function BatteryLevel({ level }: { level: number | null }) {
  if (level === null) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex align="center" gap={8} style={{ flex: 1, minWidth: 0 }}>
      <Progress
        percent={level}
        showInfo={false}
        strokeColor={barColor(level)}
        size="small"
        style={{ flex: 1, margin: 0, minWidth: 60 }}
        aria-label={`Battery ${level}%`}
      />
      <Typography.Text data-testid="battery-level" style={{ whiteSpace: 'nowrap' }}>
        {level}%
      </Typography.Text>
    </Flex>
  );
}
