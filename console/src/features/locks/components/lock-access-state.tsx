import type { Lock } from '@storage/contracts/locks';
import { Flex, Tag, Typography } from 'antd';
import { gapDuration, lockStateLabel } from '../lock-status.ts';

/** What the lock should be against what its gateway reported, and for how long they have differed. */
export function LockAccessState({ lock }: { lock: Lock }) {
  const differs = lock.differsSince !== null;
  return (
    <Flex vertical gap={2} data-testid="lock-access-state">
      <Flex gap={8} wrap align="center">
        <Typography.Text type="secondary">Desired:</Typography.Text>
        <Tag color={lock.desiredState === 'overlocked' ? 'red' : 'green'} data-testid="lock-desired">
          {lockStateLabel(lock.desiredState)}
        </Tag>
        <Typography.Text type="secondary">Reported:</Typography.Text>
        <Tag color={lock.reportedState === null ? 'default' : lock.reportedState === 'overlocked' ? 'red' : 'green'} data-testid="lock-reported">
          {lockStateLabel(lock.reportedState)}
        </Tag>
      </Flex>
      {differs && (
        // antd's warning yellow is 1.9:1 on white; this orange reads at 5.6:1 (WCAG AA).
        <Typography.Text style={{ color: '#ad4e00' }} data-testid="lock-gap">
          Differs for {gapDuration(lock.differsSince!)}
        </Typography.Text>
      )}
    </Flex>
  );
}
