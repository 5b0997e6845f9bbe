import { Button, Flex } from 'antd';

type PagedList = {
  hasNextPage: boolean;
  isPlaceholderData: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/** Loads the next page of a list paginated on the server, while there is one. */
export function LoadMoreButton({ list }: { list: PagedList }) {
  if (!list.hasNextPage || list.isPlaceholderData) return null;
  return (
    <Flex justify="center">
      <Button onClick={() => list.fetchNextPage()} loading={list.isFetchingNextPage}>
        Load more
      </Button>
    </Flex>
  );
}
