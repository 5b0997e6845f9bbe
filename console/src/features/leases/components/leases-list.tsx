import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { LeaseStatusFilter } from '@storage/contracts/leases';
import { Button, Card, Col, Empty, Flex, Input, Result, Row, Select, Skeleton, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useLeaseCounts } from '../api/get-lease-counts.ts';
import { leasesExportUrl, useLeases } from '../api/get-leases.ts';
import { LeaseCard } from './lease-card.tsx';

const SEARCH_DEBOUNCE_MS = 250;
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
  const [searchInput, setSearchInput] = useState('');
  const [statusView, setStatusView] = useState<StatusView>('all');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
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
        <Input
          className="search-input"
          prefix={<SearchOutlined />}
          placeholder="Search by name, email, or unit number..."
          aria-label="Search leases"
          allowClear
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
        />
        <Select
          aria-label="Lease status"
          value={statusView}
          onChange={setStatusView}
          options={statusFilterOptions}
          style={{ width: 160 }}
        />
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

      {leases.isPending && (
        <Row gutter={[16, 16]}>
          {Array.from({ length: LOADING_PLACEHOLDER_CARDS }, (_, index) => (
            <Col key={index} {...cardColumns}>
              <Card data-testid="lease-placeholder">
                <Skeleton active paragraph={{ rows: 5 }} />
              </Card>
            </Col>
          ))}
        </Row>
      )}

      {leases.isError && (
        <Card>
          <Result status="error" title="Error Loading Leases" subTitle="Unable to load lease data. Please try refreshing the page." />
        </Card>
      )}

      {leases.isSuccess && loaded.length === 0 && (
        <Empty
          description={
            <Flex vertical gap={4}>
              <Typography.Text strong>{emptyTitles[statusView]}</Typography.Text>
              {search && <Typography.Text type="secondary">Try adjusting your search terms</Typography.Text>}
            </Flex>
          }
        />
      )}

      {leases.isSuccess && loaded.length > 0 && (
        <Row gutter={[16, 16]} style={{ opacity: leases.isPlaceholderData ? 0.6 : 1 }}>
          {loaded.map((lease) => (
            <Col key={lease.id} {...cardColumns}>
              <LeaseCard lease={lease} onMovedOut={onMovedOut} />
            </Col>
          ))}
        </Row>
      )}

      {leases.hasNextPage && !leases.isPlaceholderData && (
        <Flex justify="center">
          <Button onClick={() => leases.fetchNextPage()} loading={leases.isFetchingNextPage}>
            Load more
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
