import { LockStatus } from '@storage/contracts/enums';
import { LockExceptionsText, lockExceptionsOf, lockExceptionsText, lockSorting } from '@storage/contracts/locks';
import { totalText } from '@storage/contracts/page-info';
import { serverMessage } from '@storage/web-client/api';
import { Empty, Flex, Result, Segmented } from 'antd';
import { z } from 'zod';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListPagination } from '../../../components/list-pagination.tsx';
import { ListSearch } from '../../../components/list-search.tsx';
import { SortSelect } from '../../../components/sort-select.tsx';
import { StatusFilter } from '../../../components/status-filter.tsx';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { NO_TOTAL } from '../../../lib/list-page.ts';
import { useListState } from '../../../lib/list-state.ts';
import { LOCKS_PAGE_SIZE, LOCKS_TABLE_PAGE_SIZE, useLocks } from '../api/get-locks.ts';
import { lockStatusOptions } from '../lock-status.ts';
import { LockCard } from './lock-card.tsx';
import { LockExceptionsFilter } from './lock-exceptions-filter.tsx';
import { LocksTable } from './locks-table.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, md: 12, xl: 8 } as const;

const sortLabels = { lockId: 'Lock ID', unit: 'Unit', status: 'Status', batteryLevel: 'Battery', lastSeen: 'Last seen' } as const;

/** The cards are the default view (and left out of the URL); the table is `view=table`. */
const TABLE = 'table';
const CARDS = 'cards';
const viewOptions = [
  { value: CARDS, label: 'Cards' },
  { value: TABLE, label: 'Table' },
];
const filterSchemas = { status: LockStatus, exceptions: LockExceptionsText, view: z.literal(TABLE) };

export function LocksList() {
  const { selectedFacility } = useFacilityScope();
  const facilityId = selectedFacility?.id ?? null;
  const list = useListState({ sorting: lockSorting, filters: filterSchemas, scope: facilityId });
  const asTable = list.filters.view === TABLE;
  const pageSize = asTable ? LOCKS_TABLE_PAGE_SIZE : LOCKS_PAGE_SIZE;
  const exceptions = lockExceptionsOf(list.filters.exceptions ?? '');
  const locks = useLocks({ search: list.search, facilityId, status: list.filters.status, exceptions, sort: list.sort }, list.at, pageSize);

  const shown = locks.data?.locks ?? [];
  const total = locks.data?.total ?? NO_TOTAL;

  return (
    <Flex vertical gap={16}>
      <ListSearch
        placeholder="Search locks by ID or unit..."
        label="Search locks"
        value={list.searchInput}
        onChange={list.setSearch}
        count={locks.isSuccess ? `${totalText(total)} ${total.count === 1 ? 'lock' : 'locks'}` : undefined}
      >
        <StatusFilter label="Lock status" value={list.filters.status} options={lockStatusOptions} onChange={(status) => list.setFilter('status', status)} />
        {/* The table sorts by its headers (and on a phone by its own choice above the rows). */}
        {!asTable && <SortSelect list={list} labels={sortLabels} />}
        <Segmented
          aria-label="View"
          options={viewOptions}
          value={asTable ? TABLE : CARDS}
          onChange={(view) => list.setFilter('view', view === TABLE ? TABLE : null)}
        />
      </ListSearch>
      <LockExceptionsFilter value={exceptions} onChange={(next) => list.setFilter('exceptions', lockExceptionsText(next) || null)} />

      {asTable ? (
        <LocksTable
          locks={locks.data?.locks}
          list={list}
          pageSize={pageSize}
          total={total}
          withFacility={facilityId === null}
          failure={locks.isError ? locks.error : null}
          dimmed={locks.isPlaceholderData}
        />
      ) : (
        <>
          {locks.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={3} testId="lock-placeholder" />}

          {locks.isError && <Result status="error" title="Could not load smart locks" subTitle={serverMessage(locks.error)} />}

          {locks.isSuccess && shown.length === 0 && <Empty description="No smart locks found" />}

          {locks.isSuccess && shown.length > 0 && (
            <CardGrid items={shown} columns={cardColumns} dimmed={locks.isPlaceholderData} renderCard={(lock) => <LockCard lock={lock} />} />
          )}

          <ListPagination page={list.page} pageSize={pageSize} total={total} onChange={list.setPage} />
        </>
      )}
    </Flex>
  );
}
