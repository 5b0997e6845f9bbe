import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { SearchInput, type SearchInputProps } from './search-input.tsx';

type ListSearchProps = Omit<SearchInputProps, 'style'> & {
  /** How many items match, once known. */
  count?: ReactNode;
  /** The list's other controls (status filter, sort), after the box. */
  children?: ReactNode;
};

/** A list's search box, its other controls and its count of matches; on a phone they wrap under the box, which keeps its whole placeholder. */
export function ListSearch({ count, children, ...search }: ListSearchProps) {
  return (
    <Flex gap={12} align="center" wrap>
      <SearchInput {...search} style={{ flexBasis: 320 }} />
      {children}
      {count !== undefined && (
        <Typography.Text type="secondary" data-testid="list-count">
          {count}
        </Typography.Text>
      )}
    </Flex>
  );
}
