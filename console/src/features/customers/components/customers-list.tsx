import { serverMessage } from '@storage/web-client/api';
import { Flex, Result, Typography } from 'antd';
import { useSearch } from 'wouter';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useCustomers } from '../api/get-customers.ts';
import { CustomerCard } from './customer-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, md: 12, xl: 8 } as const;

export function CustomersList() {
  // A link may open the list already searched (the dashboard's View: /customers?search=<email>).
  const searchFromLink = new URLSearchParams(useSearch()).get('search') ?? '';
  const { input, setInput, search } = useSearchTerm(searchFromLink);
  const { selectedFacility } = useFacilityScope();
  const customers = useCustomers({ search, facilityId: selectedFacility?.id ?? null });

  const pages = customers.data?.pages ?? [];
  const loaded = pages.flatMap((page) => page.customers);
  const total = pages.at(-1)?.total ?? 0;

  return (
    <Flex vertical gap={16}>
      <Flex gap={16} align="center" wrap>
        <SearchInput placeholder="Search customers by name, email, or phone..." label="Search customers" value={input} onChange={setInput} />
        {customers.isSuccess && (
          <Typography.Text type="secondary" data-testid="customer-count">
            {total} {total === 1 ? 'customer' : 'customers'}
          </Typography.Text>
        )}
      </Flex>

      {customers.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={3} />}

      {customers.isError && <Result status="error" title="Could not load customers" subTitle={serverMessage(customers.error)} />}

      {customers.isSuccess && loaded.length === 0 && (
        <EmptyList title="No customers found" hint={search ? 'Try adjusting your search terms' : 'Get started by adding your first customer'} />
      )}

      {customers.isSuccess && loaded.length > 0 && (
        <CardGrid items={loaded} columns={cardColumns} dimmed={customers.isPlaceholderData} renderCard={(customer) => <CustomerCard customer={customer} />} />
      )}

      <LoadMoreButton list={customers} />
    </Flex>
  );
}
