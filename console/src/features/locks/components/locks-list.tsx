import { serverMessage } from '@storage/web-client/api';
import { Empty, Flex, Result } from 'antd';
import { CardGrid, PlaceholderCards } from '../../../components/card-grid.tsx';
import { ListSearch } from '../../../components/list-search.tsx';
import { LoadMoreButton } from '../../../components/load-more-button.tsx';
import { useSearchTerm } from '../../../hooks/use-search-term.ts';
import { useFacilityScope } from '../../../lib/facility-scope.tsx';
import { useLocks } from '../api/get-locks.ts';
import { LockCard } from './lock-card.tsx';

const LOADING_PLACEHOLDER_CARDS = 6;

const cardColumns = { xs: 24, md: 12, xl: 8 } as const;

export function LocksList() {
  const { input, setInput, search } = useSearchTerm();
  const { selectedFacility } = useFacilityScope();
  const locks = useLocks({ search, facilityId: selectedFacility?.id ?? null });

  const pages = locks.data?.pages ?? [];
  const loaded = pages.flatMap((page) => page.locks);
  const total = pages.at(-1)?.total ?? 0;

  return (
    <Flex vertical gap={16}>
      <ListSearch
        placeholder="Search locks by ID or unit..."
        label="Search locks"
        value={input}
        onChange={setInput}
        count={locks.isSuccess ? `${total} ${total === 1 ? 'lock' : 'locks'}` : undefined}
      />

      {locks.isPending && <PlaceholderCards count={LOADING_PLACEHOLDER_CARDS} columns={cardColumns} rows={3} testId="lock-placeholder" />}

      {locks.isError && <Result status="error" title="Could not load smart locks" subTitle={serverMessage(locks.error)} />}

      {locks.isSuccess && loaded.length === 0 && <Empty description="No smart locks found" />}

      {locks.isSuccess && loaded.length > 0 && (
        <CardGrid items={loaded} columns={cardColumns} dimmed={locks.isPlaceholderData} renderCard={(lock) => <LockCard lock={lock} />} />
      )}

      <LoadMoreButton list={locks} />
    </Flex>
  );
}
