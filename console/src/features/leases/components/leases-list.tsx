import { DownloadOutlined } from '@ant-design/icons';
import { LeaseSignatureFilter, LeaseStatusFilter, leaseSorting } from '@storage/contracts/leases';
import { Button, Card, Flex, Result, Select, Tabs } from 'antd';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { SortSelect } from '../../../components/sort-select.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useLeaseCounts } from '../api/get-lease-counts.ts';
import { LEASES_PAGE_SIZE, leasesExportUrl, useLeases } from '../api/get-leases.ts';
import { LeaseCard } from './lease-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, xl: 12 } as const;

type StatusView = 'all' | LeaseStatusFilter;

const statusFilterOptions: Array<{ value: StatusView; label: string }> = [
  { value: 'all', label: 'All Leases' },
  { value: 'active', label: 'Active Only' },
  { value: 'inactive', label: 'Inactive Only' },
];

type SignatureView = 'any' | LeaseSignatureFilter;

const signatureFilterOptions: Array<{ value: SignatureView; label: string }> = [
  { value: 'any', label: 'Any Signature' },
  { value: 'awaiting', label: 'Awaiting Signature' },
  { value: 'signed', label: 'Signed' },
];

const tabLabels: Record<StatusView, string> = { all: 'All', active: 'Active', inactive: 'Inactive' };
const emptyTitles: Record<StatusView, string> = { all: 'No Leases Found', active: 'No Active Leases', inactive: 'No Inactive Leases' };

const sortLabels = { createdAt: 'Date added', startDate: 'Start date', customer: 'Tenant', unit: 'Unit', monthlyRate: 'Monthly rate' } as const;

/** The status filter and the tabs are one choice shown twice: picking either moves the other. */
export function LeasesList({ onMovedOut }: { onMovedOut: () => void }) {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: leaseSorting, filters: { status: LeaseStatusFilter, signature: LeaseSignatureFilter }, scope: facilityId });
  const { search } = list;
  const statusView: StatusView = list.filters.status ?? 'all';
  const setStatusView = (view: StatusView) => list.setFilter('status', view === 'all' ? null : view);
  const signature = list.filters.signature ?? null;
  const filter = { search, facilityId, status: list.filters.status, signature };
  const leases = useLeases(filter, list.sort, list.at);
  const counts = useLeaseCounts({ search, facilityId, signature });

  const loaded = leases.data?.leases ?? [];

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap>
        <SearchInput placeholder="Search by name, email, or unit number..." label="Search leases" value={list.searchInput} onChange={list.setSearch} />
        <Select aria-label="Lease status" value={statusView} onChange={setStatusView} options={statusFilterOptions} style={{ width: 160 }} />
        <Select
          aria-label="Signature"
          value={signature ?? 'any'}
          onChange={(view: SignatureView) => list.setFilter('signature', view === 'any' ? null : view)}
          options={signatureFilterOptions}
          style={{ width: 180 }}
        />
        <SortSelect list={list} labels={sortLabels} />
        <Button icon={<DownloadOutlined />} href={leasesExportUrl(filter)} download>
          Export All
        </Button>
      </Flex>

      <Tabs
        activeKey={statusView}
        onChange={(key) => setStatusView(key as StatusView)}
        items={(['all', 'active', 'inactive'] as const).map((view) => ({
          key: view,
          label: counts.data ? `${tabLabels[view]} (${counts.data[view]})` : tabLabels[view],
        }))}
        style={{ marginBottom: -8 }}
      />

      {leases.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={5} testId="lease-placeholder" />}

      {leases.isError && (
        <Card>
          <Result status="error" title="Error Loading Leases" subTitle="Unable to load lease data. Please try refreshing the page." />
        </Card>
      )}

      {leases.isSuccess && loaded.length === 0 && <EmptyList title={emptyTitles[statusView]} hint={search ? 'Try adjusting your search terms' : undefined} />}

      {leases.isSuccess && loaded.length > 0 && (
        <CardGrid
          items={loaded}
          columns={cardColumns}
          dimmed={leases.isPlaceholderData}
          renderCard={(lease) => <LeaseCard lease={lease} onMovedOut={onMovedOut} />}
        />
      )}

      <ListPagination page={list.page} pageSize={LEASES_PAGE_SIZE} total={leases.data?.total ?? NO_TOTAL} onChange={list.setPage} />
    </Flex>
  );
}
