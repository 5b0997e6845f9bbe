import { DownloadOutlined } from '@ant-design/icons';
import type { LeaseStatusFilter } from '@storage/contracts/leases';
import { Button, Card, Flex, Result, Select, Tabs } from 'antd';
import { useState } from 'react';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useLeaseCounts } from '../api/get-lease-counts.ts';
import { leasesExportUrl, useLeases } from '../api/get-leases.ts';
import { LeaseCard } from './lease-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, xl: 12 } as const;

type StatusView = 'all' | LeaseStatusFilter;

const statusFilterOptions: Array<{ value: StatusView; label: string }> = [
  { value: 'all', label: 'All Leases' },
  { value: 'active', label: 'Active Only' },
  { value: 'inactive', label: 'Inactive Only' },
];

const tabLabels: Record<StatusView, string> = { all: 'All', active: 'Active', inactive: 'Inactive' };
const emptyTitles: Record<StatusView, string> = { all: 'No Leases Found', active: 'No Active Leases', inactive: 'No Inactive Leases' };

/** The status filter and the tabs are one choice shown twice: picking either moves the other. */
export function LeasesList({ onMovedOut }: { onMovedOut: () => void }) {
  const { input, setInput, search } = useSearchTerm();
  const [statusView, setStatusView] = useState<StatusView>('all');
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const filter = { search, facilityId, status: statusView === 'all' ? null : statusView };
  const leases = useLeases(filter);
  const counts = useLeaseCounts({ search, facilityId });

  const pages = leases.data?.pages ?? [];
  const loaded = pages.flatMap((page) => page.leases);

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap>
        <SearchInput placeholder="Search by name, email, or unit number..." label="Search leases" value={input} onChange={setInput} />
        <Select aria-label="Lease status" value={statusView} onChange={setStatusView} options={statusFilterOptions} style={{ width: 160 }} />
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

      <LoadMoreButton list={leases} />
    </Flex>
  );
}
