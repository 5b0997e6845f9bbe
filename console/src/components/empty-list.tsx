import { Empty, Flex, Typography } from 'antd';

/** What a list says when it has nothing to show, with a hint of what to do. */
export function EmptyList({ title, hint }: { title: string; hint?: string }) {
  return (
    <Empty
      description={
        <Flex vertical gap={4}>
          <Typography.Text strong>{title}</Typography.Text>
          {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
        </Flex>
      }
    />
  );
}
