import type { LockException } from '@storage/contracts/locks';
import { Flex, Tag, Typography } from 'antd';
import { lockExceptionOptions } from '../lock-status.ts';

const LABEL_ID = 'lock-exceptions-label';

/** Narrows the locks to those with any of the checked exceptions; none checked shows every lock. */
export function LockExceptionsFilter({ value, onChange }: { value: LockException[]; onChange: (exceptions: LockException[]) => void }) {
  return (
    <Flex align="center" gap={8} wrap role="group" aria-labelledby={LABEL_ID}>
      <Typography.Text type="secondary" id={LABEL_ID}>
        Exceptions
      </Typography.Text>
      <Tag.CheckableTagGroup<LockException> multiple options={lockExceptionOptions} value={value} onChange={onChange} />
    </Flex>
  );
}
