import { leaseSorting } from '@storage/contracts/leases';
import { serverMessage } from '@storage/web-client/api';
import { Empty, Result } from 'antd';
import { useState } from 'react';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { LEASES_PAGE_SIZE, useLeases } from '../api/get-leases.ts';
import { LeaseCard } from './lease-card.tsx';

const cardColumns = { xs: 24, xl: 12 } as const;

/** One tenant's leases, active and ended, newest first: the units they rent and rented. */
export function CustomerLeases({ customerId, onMovedOut }: { customerId: string; onMovedOut: () => void }) {
  const [page, setPage] = useState(1);
  const leases = useLeases({ search: '', facilityId: null, status: null, customerId }, leaseSorting.byDefault, page);
  if (leases.isPending) return <PlaceholderCards count={2} columns={cardColumns} rows={5} testId="lease-placeholder" />;
  if (leases.isError) return <Result status="error" title="Could not load leases" subTitle={serverMessage(leases.error)} />;
  if (leases.data.leases.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No leases yet" />;
  return (
    <>
      <CardGrid
        items={leases.data.leases}
        columns={cardColumns}
        dimmed={leases.isPlaceholderData}
        renderCard={(lease) => <LeaseCard lease={lease} onMovedOut={onMovedOut} showTenant={false} />}
      />
      <ListPagination page={page} pageSize={LEASES_PAGE_SIZE} total={leases.data.total} onChange={setPage} />
    </>
  );
}
