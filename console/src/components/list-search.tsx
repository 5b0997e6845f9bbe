import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { SearchInput, type SearchInputProps } from './search-input.tsx';

type ListSearchProps = Omit<SearchInputProps, 'style'> & {
  /** How many items match, once known. */
  count?: ReactNode;
};

/** A list's search box and its count of matches; on a phone the count goes under the box, which keeps its whole placeholder. */
export function ListSearch({ count, ...search }: ListSearchProps) {
  return (
    <Flex gap={16} align="center" wrap>
      <SearchInput {...search} style={{ flexBasis: 320 }} />
      {count !== undefined && (
        <Typography.Text type="secondary" data-testid="list-count">
          {count}
        </Typography.Text>
      )}
    </Flex>
  );
}
