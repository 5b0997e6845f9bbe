import { SearchOutlined } from '@ant-design/icons';
import { Flex, Input, Typography } from 'antd';
import type { ReactNode } from 'react';

type ListSearchProps = {
  placeholder: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** How many items match, once known. */
  count?: ReactNode;
};

/** A list's search box and its count of matches; on a phone the count goes under the box, which keeps its whole placeholder. */
export function ListSearch({ placeholder, label, value, onChange, count }: ListSearchProps) {
  return (
    <Flex gap={16} align="center" wrap>
      <Input
        className="search-input"
        style={{ flexBasis: 320 }}
        prefix={<SearchOutlined />}
        placeholder={placeholder}
        aria-label={label}
        allowClear
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {count !== undefined && (
        <Typography.Text type="secondary" data-testid="list-count">
          {count}
        </Typography.Text>
      )}
    </Flex>
  );
}
