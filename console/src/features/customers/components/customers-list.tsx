import { customerSorting } from '@storage/contracts/customers';
import { CustomerStatus } from '@storage/contracts/enums';
import { totalText } from '@storage/contracts/page-info';
import { serverMessage } from '@storage/web-client/api';
import { Flex, Result } from 'antd';
import { z } from 'zod';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { ListSearch } from '../../../components/list-search.tsx';
import { SortSelect } from '../../../components/sort-select.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { customerStatusOptions } from '../../../lib/customer-status.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { CUSTOMERS_PAGE_SIZE, useCustomers } from '../api/get-customers.ts';
import { CustomerCard } from './customer-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, md: 12, xl: 8 } as const;

const AutopayFilter = z.enum(['on', 'off']);
const autopayOptions = [
  { value: 'on', label: 'Autopay on' },
  { value: 'off', label: 'Autopay off' },
] as const;

/** The archived customers, where staff restore one; the list shows the current ones otherwise. */
const ArchivedFilter = z.enum(['true']);
const archivedOptions = [{ value: 'true', label: 'Archived customers' }] as const;

const sortLabels = { name: 'Name', email: 'Email', status: 'Status', createdAt: 'Date added' } as const;

export function CustomersList() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  // A link may open the list already searched (the dashboard's View: /customers?search=<email>).
  const list = useListState({
    sorting: customerSorting,
    filters: { status: CustomerStatus, autopay: AutopayFilter, archived: ArchivedFilter },
    scope: facilityId,
  });
  const archived = list.filters.archived === 'true';
  const customers = useCustomers(
    { search: list.search, facilityId, status: list.filters.status, autopay: list.filters.autopay, archived, sort: list.sort },
    list.at,
  );

  const shown = customers.data?.customers ?? [];
  const total = customers.data?.total ?? NO_TOTAL;
  const narrowed = Boolean(list.search || list.filters.status || list.filters.autopay || archived);

  return (
    <Flex vertical gap={16}>
      <ListSearch
        placeholder="Search customers by name, email, or phone..."
        label="Search customers"
        value={list.searchInput}
        onChange={list.setSearch}
        count={customers.isSuccess ? `${totalText(total)} ${total.count === 1 ? 'customer' : 'customers'}` : undefined}
      >
        <StatusFilter
          label="Customer status"
          value={list.filters.status}
          options={customerStatusOptions}
          onChange={(status) => list.setFilter('status', status)}
        />
        <StatusFilter
          label="Autopay"
          allLabel="Autopay: all"
          value={list.filters.autopay}
          options={autopayOptions}
          onChange={(autopay) => list.setFilter('autopay', autopay)}
        />
        <StatusFilter
          label="Current or archived customers"
          allLabel="Current customers"
          value={list.filters.archived}
          options={archivedOptions}
          onChange={(value) => list.setFilter('archived', value)}
        />
        <SortSelect list={list} labels={sortLabels} />
      </ListSearch>

      {customers.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={3} />}

      {customers.isError && <Result status="error" title="Could not load customers" subTitle={serverMessage(customers.error)} />}

      {customers.isSuccess && shown.length === 0 && (
        <EmptyList title="No customers found" hint={narrowed ? 'Try adjusting your search terms' : 'Get started by adding your first customer'} />
      )}

      {customers.isSuccess && shown.length > 0 && (
        <CardGrid
          items={shown}
          columns={cardColumns}
          dimmed={customers.isPlaceholderData}
          renderCard={(customer) => <CustomerCard customer={customer} archived={archived} />}
        />
      )}

      <ListPagination page={list.page} pageSize={CUSTOMERS_PAGE_SIZE} total={total} onChange={list.setPage} />
    </Flex>
  );
}
