import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

type PageHeaderProps = {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
};

export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Flex className="page-header" justify="space-between" align="flex-start" gap={16} wrap>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {subtitle && (
          <Typography.Text type="secondary" className="page-header-subtitle">
            {subtitle}
          </Typography.Text>
        )}
      </div>
      {actions && (
        <Flex gap={8} align="center" wrap>
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
