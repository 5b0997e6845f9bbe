import { Flex, Pagination } from 'antd';

type ListPaginationProps = {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
};

/** A list's pages; shown while there is more than one, or when the page asked for is past the end (a link from before the list shrank). */
export function ListPagination({ page, pageSize, total, onChange }: ListPaginationProps) {
  if (total <= pageSize && page === 1) return null;
  return (
    <Flex justify="flex-end" className="list-pagination">
      <Pagination current={page} pageSize={pageSize} total={total} showSizeChanger={false} onChange={onChange} />
    </Flex>
  );
}
