import { SearchOutlined } from '@ant-design/icons';
import { serverMessage } from '@storage/web-client/api';
import { Button, Card, Col, Empty, Flex, Input, Result, Row, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useCustomers } from '../api/get-customers.ts';
import { CustomerCard } from './customer-card.tsx';

const SEARCH_DEBOUNCE_MS = 250;
const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, md: 12, xl: 8 } as const;

export function CustomersList() {
  // A link may open the list already searched (the dashboard's View: /customers?search=<email>).
  const searchFromLink = new URLSearchParams(useSearch()).get('search') ?? '';
  const [searchInput, setSearchInput] = useState(searchFromLink);
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const { selectedFacility } = useFacilityScope();
  const customers = useCustomers({ search, facilityId: selectedFacility?.id ?? null });

  const pages = customers.data?.pages ?? [];
  const loaded = pages.flatMap((page) => page.customers);
  const total = pages.at(-1)?.total ?? 0;

  return (
    <Flex vertical gap={16}>
      <Flex gap={16} align="center" wrap>
        <Input
          className="search-input"
          prefix={<SearchOutlined />}
          placeholder="Search customers by name, email, or phone..."
          aria-label="Search customers"
          allowClear
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
        />
        {customers.isSuccess && (
          <Typography.Text type="secondary" data-testid="customer-count">
            {total} {total === 1 ? 'customer' : 'customers'}
          </Typography.Text>
        )}
      </Flex>

      {customers.isPending && (
        <Row gutter={[16, 16]}>
          {Array.from({ length: LOADING_PLACEHOLDER_CARDS }, (_, index) => (
            <Col key={index} {...cardColumns}>
              <Card>
                <Skeleton active paragraph={{ rows: 3 }} />
              </Card>
            </Col>
          ))}
        </Row>
      )}

      {customers.isError && <Result status="error" title="Could not load customers" subTitle={serverMessage(customers.error)} />}

      {customers.isSuccess && loaded.length === 0 && (
        <Empty
          description={
            <Flex vertical gap={4}>
              <Typography.Text strong>No customers found</Typography.Text>
              <Typography.Text type="secondary">
                {search ? 'Try adjusting your search terms' : 'Get started by adding your first customer'}
              </Typography.Text>
            </Flex>
          }
        />
      )}

      {customers.isSuccess && loaded.length > 0 && (
        <Row gutter={[16, 16]} style={{ opacity: customers.isPlaceholderData ? 0.6 : 1 }}>
          {loaded.map((customer) => (
            <Col key={customer.id} {...cardColumns}>
              <CustomerCard customer={customer} />
            </Col>
          ))}
        </Row>
      )}

      {customers.hasNextPage && !customers.isPlaceholderData && (
        <Flex justify="center">
          <Button onClick={() => customers.fetchNextPage()} loading={customers.isFetchingNextPage}>
            Load more
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
